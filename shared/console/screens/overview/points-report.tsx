import { useState } from 'preact/hooks';
import type { components } from '../../../client/schema';
import { api, unwrap } from '../../api';
import { useLoad } from '../../hooks/use-load';
import { Failure, Loading } from '../../ui/feedback';
import { Explained } from '../../ui/explained';
import { changeLabel, periodDays } from './compare';
import { DEFINITIONS, type Defined } from './definitions';
import { campaignsCsv, campaignsFileName, reportCsv, reportFileName } from './report-csv';

type Report = components['schemas']['PointsReport'];
type Granularity = Report['granularity'];
export interface Period {
  from?: string;
  to?: string;
  granularity: Granularity;
}

const n = (v: number) => v.toLocaleString();
const pct = (v: number | null) => (v === null ? '–' : `${(v * 100).toFixed(1)} %`);

/** The points programme's month-end figures for the period the person picks (default: this month, by day). */
export function PointsReport({ period, onPick }: { period: Period; onPick: (p: Period) => void }) {
  const report = useLoad(
    () => unwrap(api.GET('/api/flash/reports/points', { params: { query: { ...period } } })),
    [period.from, period.to, period.granularity],
  );
  return (
    <section aria-labelledby="points-report-title">
      <h2 id="points-report-title">Points</h2>
      <PeriodPicker
        key={report.state === 'ready' ? `${report.data.data.from}/${report.data.data.to}` : 'loading'}
        shown={report.state === 'ready' ? report.data.data : undefined}
        onPick={onPick}
      />
      {report.state === 'loading' ? <Loading what="the points report" /> : null}
      {report.state === 'failed' ? <Failure error={report.error} /> : null}
      {report.state === 'ready' ? <ReportFigures report={report.data.data} /> : null}
    </section>
  );
}

function PeriodPicker({ shown, onPick }: { shown: Report | undefined; onPick: (p: Period) => void }) {
  const [from, setFrom] = useState(shown?.from ?? '');
  const [to, setTo] = useState(shown?.to ?? '');
  const [granularity, setGranularity] = useState<Granularity>(shown?.granularity ?? 'day');
  return (
    <form
      class="filters"
      aria-label="Period"
      onSubmit={(e) => {
        e.preventDefault();
        onPick({ ...(from ? { from } : {}), ...(to ? { to } : {}), granularity });
      }}
    >
      <label>
        From <input type="date" name="from" value={from} onInput={(e) => setFrom(e.currentTarget.value)} />
      </label>
      <label>
        To <input type="date" name="to" value={to} onInput={(e) => setTo(e.currentTarget.value)} />
      </label>
      <label>
        By
        <select name="granularity" value={granularity} onChange={(e) => setGranularity(e.currentTarget.value as Granularity)}>
          <option value="day">day</option>
          <option value="month">month</option>
        </select>
      </label>
      <button type="submit">Show</button>
    </form>
  );
}

function ReportFigures({ report }: { report: Report }) {
  const t = report.totals;
  const p = report.previous.totals;
  const days = periodDays(report.from, report.to);
  const rows: [Defined, string, number, number][] = [
    ['outstanding', 'Outstanding (the liability) at the end', t.outstanding, p.outstanding],
    ['opening', 'Outstanding at the start', t.opening, p.opening],
    ['issued', `Issued (base ${n(t.issued.base)}, campaign ${n(t.issued.campaign)}, manual ${n(t.issued.manual)})`, t.issued.total, p.issued.total],
    ['redeemed', 'Redeemed (coupons and rewards)', t.redeemed, p.redeemed],
    ['reversed', 'Reversed by refunds', t.reversed, p.reversed],
    ['expired', 'Expired', t.expired, p.expired],
    ['deducted', 'Deducted by support', t.deducted, p.deducted],
    ['pending', 'Pending at the end (not yet spendable)', t.pending, p.pending],
  ];
  return (
    <>
      <p class="meta">
        {report.from} to {report.to}, {report.timeZone}, compared with {report.previous.from} to {report.previous.to}{' '}
        <a href={`data:text/csv;charset=utf-8,${encodeURIComponent(reportCsv(report))}`} download={reportFileName(report)}>
          Download CSV
        </a>
      </p>
      <table aria-label="Points in the period">
        <tbody>
          {rows.map(([id, label, value, before]) => (
            <tr key={id}>
              <th scope="row">
                <Explained id={id} definition={DEFINITIONS[id]}>
                  {label}
                </Explained>
              </th>
              <td>
                <span data-testid={`report-${id}`}>{n(value)}</span>
                <span class="change" data-testid={`change-${id}`}>
                  {changeLabel(value, before, days)}
                </span>
              </td>
            </tr>
          ))}
          <tr>
            <th scope="row">
              <Explained id="redemption-rate" definition={DEFINITIONS['redemption-rate']}>
                Redemption rate (redeemed / issued)
              </Explained>
            </th>
            <td data-testid="report-redemption-rate">{pct(report.rates.period.redemption)}</td>
          </tr>
          <tr>
            <th scope="row">
              <Explained id="breakage-rate" definition={DEFINITIONS['breakage-rate']}>
                Breakage rate (expired / issued)
              </Explained>
            </th>
            <td data-testid="report-breakage-rate">{pct(report.rates.period.breakage)}</td>
          </tr>
          {report.value.map((v) => (
            <tr key={v.currency}>
              <th scope="row">
                <Explained id={`value-${v.currency}`} definition={DEFINITIONS.value}>
                  Liability in {v.currency} at {v.pointValue} a point
                </Explained>
              </th>
              <td data-testid={`report-value-${v.currency}`}>{v.amount.toLocaleString(undefined, { style: 'currency', currency: v.currency })}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Chart report={report} />
      {report.liabilityByExpiry.length > 0 ? (
        <table aria-label="Outstanding points by expiry month">
          <thead>
            <tr>
              <th scope="col">Expires in</th>
              <th scope="col">Points</th>
            </tr>
          </thead>
          <tbody>
            {report.liabilityByExpiry.map((l) => (
              <tr key={l.month ?? 'none'}>
                <td>{l.month ?? 'no date'}</td>
                <td>{n(l.points)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <Campaigns report={report} days={days} />
    </>
  );
}

/** The campaigns that cost the most points in the period, with the period before. */
function Campaigns({ report, days }: { report: Report; days: number }) {
  if (report.campaigns.length === 0) return <p class="empty">No campaign credited points in this period.</p>;
  return (
    <>
      <h3>Campaigns by cost</h3>
      <p class="meta">
        <a href={`data:text/csv;charset=utf-8,${encodeURIComponent(campaignsCsv(report))}`} download={campaignsFileName(report)}>
          Download campaigns CSV
        </a>
      </p>
      <table aria-label="Campaigns by cost in points">
        <thead>
          <tr>
            <th scope="col">Campaign</th>
            <th scope="col">
              <Explained id="campaign-points" definition={DEFINITIONS['campaign-points']}>
                Points
              </Explained>
            </th>
            <th scope="col">
              <Explained id="campaign-rewards" definition={DEFINITIONS['campaign-rewards']}>
                Rewards
              </Explained>
            </th>
          </tr>
        </thead>
        <tbody>
          {report.campaigns.map((c) => (
            <tr key={c.campaignId}>
              <th scope="row">{c.name ?? `${c.campaignId} (deleted)`}</th>
              <td data-testid={`campaign-points-${c.campaignId}`}>
                {n(c.points)}
                <span class="change">{changeLabel(c.points, c.previousPoints, days)}</span>
              </td>
              <td>{n(c.rewards)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

const SERIES = [
  { key: 'issued', label: 'issued', color: '#1b6ac9' },
  { key: 'redeemed', label: 'redeemed', color: '#2e7d32' },
  { key: 'expired', label: 'expired', color: '#b3261e' },
] as const;
const W = 640;
const H = 200;
const PAD = 28;

/** Issued, redeemed and expired per bucket as lines (plain SVG), with a legend. */
function Chart({ report }: { report: Report }) {
  const values = report.buckets.map((b) => ({ issued: b.issued.total, redeemed: b.redeemed, expired: b.expired }));
  const max = Math.max(1, ...values.flatMap((v) => [v.issued, v.redeemed, v.expired]));
  const x = (i: number) => PAD + (values.length <= 1 ? (W - 2 * PAD) / 2 : (i * (W - 2 * PAD)) / (values.length - 1));
  const y = (v: number) => H - PAD - (v * (H - 2 * PAD)) / max;
  const first = report.buckets[0]?.start ?? report.from;
  const last = report.buckets.at(-1)?.end ?? report.to;
  const summary = `Points issued, redeemed and expired per ${report.granularity} from ${first} to ${last}; at most ${n(max)} in a ${report.granularity}`;
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={summary} data-testid="points-chart">
        <line x1={PAD} y1={H - PAD} x2={W - PAD} y2={H - PAD} stroke="#767676" />
        <text x={PAD} y={PAD - 10} font-size="11" fill="#333">
          {n(max)}
        </text>
        <text x={PAD} y={H - 8} font-size="11" fill="#333">
          {first}
        </text>
        <text x={W - PAD} y={H - 8} font-size="11" fill="#333" text-anchor="end">
          {last}
        </text>
        {SERIES.map((s) => (
          <polyline
            key={s.key}
            data-series={s.key}
            fill="none"
            stroke={s.color}
            stroke-width="2"
            points={values.map((v, i) => `${x(i).toFixed(1)},${y(v[s.key]).toFixed(1)}`).join(' ')}
          />
        ))}
      </svg>
      <figcaption>
        {SERIES.map((s) => (
          <span key={s.key} class="legend">
            <svg width="12" height="12" aria-hidden="true">
              <rect width="12" height="12" fill={s.color} />
            </svg>{' '}
            {s.label}{' '}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
