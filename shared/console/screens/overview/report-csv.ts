import type { components } from '../../../client/schema';

type Report = components['schemas']['PointsReport'];
type MembersReport = components['schemas']['MembersReport'];
type Figures = Omit<Report['buckets'][number], 'start' | 'end'>;

const COLUMNS = [
  'start',
  'end',
  'issued_base',
  'issued_campaign',
  'issued_manual',
  'issued_total',
  'redeemed',
  'reversed',
  'expired',
  'deducted',
  'outstanding',
  'pending',
] as const;

const row = (start: string, end: string, f: Figures) =>
  [start, end, f.issued.base, f.issued.campaign, f.issued.manual, f.issued.total, f.redeemed, f.reversed, f.expired, f.deducted, f.outstanding, f.pending].join(
    ',',
  );

const csv = (lines: readonly string[]) => `${lines.join('\r\n')}\r\n`;

/** A cell as RFC 4180 writes it: quoted, inner quotes doubled, when it holds a comma, a quote or a line break. */
export const cell = (v: string | number | null): string => {
  const s = v === null ? '' : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
};

/**
 * What the points report shows, as CSV (RFC 4180, CRLF): one row per day or month, the period
 * before (what the figures are compared with), then the whole period. Every cell is a date or a
 * whole number, so none needs quoting.
 */
export function reportCsv(report: Report): string {
  const p = report.previous;
  return csv([
    COLUMNS.join(','),
    ...report.buckets.map((b) => row(b.start, b.end, b)),
    row(p.from, p.to, p.totals),
    row(report.from, report.to, report.totals),
  ]);
}

/** The campaigns by cost the points report shows, as CSV: one row per campaign, most points first. */
export function campaignsCsv(report: Pick<Report, 'campaigns'>): string {
  return csv([
    'campaign_id,name,points,rewards,previous_points',
    ...report.campaigns.map((c) => [c.campaignId, cell(c.name), c.points, c.rewards, c.previousPoints].join(',')),
  ]);
}

/** What the members section shows, as CSV: the figure, its value, and the period before's where it has one. */
export function membersCsv(report: MembersReport): string {
  return csv([
    'figure,value,previous',
    `members,${report.members},`,
    `active ${report.from} to ${report.to},${report.active ?? ''},${report.previous.active ?? ''}`,
    ...report.tiers.map((t) => `${cell(`tier ${t.name}`)},${t.members},`),
  ]);
}

export const membersFileName = (report: Pick<MembersReport, 'from' | 'to'>) => `members-${report.from}-to-${report.to}.csv`;

export const campaignsFileName = (report: Pick<Report, 'from' | 'to'>) => `campaigns-${report.from}-to-${report.to}.csv`;

/** The file's name: the period it covers. */
export const reportFileName = (report: Pick<Report, 'from' | 'to' | 'granularity'>) => `points-${report.from}-to-${report.to}-by-${report.granularity}.csv`;
