import type { components } from '../../../client/schema';
import { api, unwrap } from '../../api';
import { useLoad } from '../../hooks/use-load';
import { useMay } from '../../permissions';
import { Explained } from '../../ui/explained';
import { Failure, Loading, when } from '../../ui/feedback';
import { DEFINITIONS, type Defined } from './definitions';
import { useState } from 'preact/hooks';
import { MembersReport } from './members-report';
import { type Period, PointsReport } from './points-report';

/** The workspace at a glance: running totals, webhook health of the last 24 hours, exports under way. */
export function Overview() {
  const figures = useLoad(() => unwrap(api.GET('/api/flash/overview')), []);
  const may = useMay();
  // One period for the reports: picked above the points, the members' figures follow it.
  const [period, setPeriod] = useState<Period>({ granularity: 'day' });
  return (
    <section aria-labelledby="overview-title">
      <h1 id="overview-title">Overview</h1>
      {figures.state === 'loading' ? <Loading what="the overview" /> : null}
      {figures.state === 'failed' ? <Failure error={figures.error} /> : null}
      {figures.state === 'ready' ? <Figures data={figures.data.data} onRefresh={figures.reload} /> : null}
      {may('GET /api/flash/reports/points') ? <PointsReport period={period} onPick={setPeriod} /> : null}
      {may('GET /api/flash/reports/members') ? <MembersReport from={period.from} to={period.to} /> : null}
    </section>
  );
}

type Data = components['schemas']['Overview'];

function Figure({ label, value, id }: { label: string; value: number; id: Defined }) {
  return (
    <li class="card figure">
      <strong data-testid={id}>{value.toLocaleString()}</strong>{' '}
      <Explained id={id} definition={DEFINITIONS[id]}>
        {label}
      </Explained>
    </li>
  );
}

function Figures({ data, onRefresh }: { data: Data; onRefresh: () => void }) {
  const w = data.webhooks;
  const quiet = data.members === 0 && data.orders === 0 && w.delivered + w.failed + w.dead === 0;
  return (
    <>
      {quiet ? <p class="empty">Nothing has happened in this workspace yet: members, orders and deliveries show up here.</p> : null}
      <ul class="figures" aria-label="Workspace figures">
        <Figure id="members" label="members" value={data.members} />
        <Figure id="points-issued" label="points issued" value={data.pointsIssued} />
        <Figure id="points-redeemed" label="points redeemed (coupons and rewards)" value={data.pointsRedeemed} />
        <Figure id="orders" label="orders" value={data.orders} />
        <Figure id="exports-running" label="exports running" value={data.exportsRunning} />
      </ul>
      <h2>Webhooks in the last 24 hours</h2>
      <ul class="figures" aria-label="Webhook deliveries in the last 24 hours">
        <Figure id="webhooks-delivered" label="delivered" value={w.delivered} />
        <Figure id="webhooks-failed" label="failed" value={w.failed} />
        <Figure id="webhooks-dead" label="dead" value={w.dead} />
      </ul>
      {w.partial ? <p>Some endpoints had more attempts than were counted: these are lower bounds.</p> : null}
      <p class="meta">
        As of {when(data.generatedAt)}{' '}
        <button type="button" onClick={onRefresh}>
          Refresh
        </button>
      </p>
    </>
  );
}
