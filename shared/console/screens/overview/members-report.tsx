import type { components } from '../../../client/schema';
import { api, unwrap } from '../../api';
import { useLoad } from '../../hooks/use-load';
import { Explained } from '../../ui/explained';
import { Failure, Loading } from '../../ui/feedback';
import { changeLabel, periodDays } from './compare';
import { DEFINITIONS } from './definitions';
import { membersCsv, membersFileName } from './report-csv';

type Report = components['schemas']['MembersReport'];

const n = (v: number) => v.toLocaleString();

/** Members by tier now, and the members active in the period picked for the points (and the period before). */
export function MembersReport({ from, to }: { from?: string; to?: string }) {
  const report = useLoad(
    () => unwrap(api.GET('/api/flash/reports/members', { params: { query: { ...(from ? { from } : {}), ...(to ? { to } : {}) } } })),
    [from, to],
  );
  return (
    <section aria-labelledby="members-report-title">
      <h2 id="members-report-title">Members</h2>
      {report.state === 'loading' ? <Loading what="the members report" /> : null}
      {report.state === 'failed' ? <Failure error={report.error} /> : null}
      {report.state === 'ready' ? <MembersFigures report={report.data.data} /> : null}
    </section>
  );
}

function MembersFigures({ report }: { report: Report }) {
  const before = report.previous.active;
  return (
    <>
      <p class="meta">
        <a href={`data:text/csv;charset=utf-8,${encodeURIComponent(membersCsv(report))}`} download={membersFileName(report)}>
          Download members CSV
        </a>
      </p>
      <ul class="figures" aria-label="Members in the period">
        <li class="card figure">
          <strong data-testid="members-active">{report.active === null ? '–' : n(report.active)}</strong>{' '}
          <Explained id="active" definition={DEFINITIONS.active}>
            active members
          </Explained>
          , {report.from} to {report.to}
          {report.active !== null && before !== null ? (
            <span class="change" data-testid="change-active">
              {changeLabel(report.active, before, periodDays(report.from, report.to))}
            </span>
          ) : null}
          {report.active === null ? <p class="meta">Counted for periods of up to 92 days.</p> : null}
        </li>
      </ul>
      <TierBars report={report} />
    </>
  );
}

const W = 640;
const ROW = 26;
const LABEL = 120;

/** Members per tier as horizontal bars (plain SVG), beside a table of the same numbers. */
function TierBars({ report }: { report: Report }) {
  const max = Math.max(1, ...report.tiers.map((t) => t.members));
  const h = ROW * report.tiers.length + 8;
  const summary = `Members by tier: ${report.tiers.map((t) => `${t.name} ${n(t.members)}`).join(', ')}`;
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${W} ${h}`} role="img" aria-label={summary} data-testid="tiers-chart">
        {report.tiers.map((t, i) => (
          <g key={t.tier}>
            <text x={0} y={i * ROW + 18} font-size="12" fill="#333">
              {t.name}
            </text>
            <rect x={LABEL} y={i * ROW + 6} height={16} width={((W - LABEL - 60) * t.members) / max} fill="#1b6ac9" />
            <text x={LABEL + ((W - LABEL - 60) * t.members) / max + 6} y={i * ROW + 18} font-size="12" fill="#333">
              {n(t.members)}
            </text>
          </g>
        ))}
      </svg>
      <figcaption>
        <table aria-label="Members by tier">
          <thead>
            <tr>
              <th scope="col">Tier</th>
              <th scope="col">
                <Explained id="tiers" definition={DEFINITIONS.tiers}>
                  Members
                </Explained>
              </th>
            </tr>
          </thead>
          <tbody>
            {report.tiers.map((t) => (
              <tr key={t.tier}>
                <th scope="row">{t.name}</th>
                <td data-testid={`tier-${t.tier}`}>{n(t.members)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </figcaption>
    </figure>
  );
}
