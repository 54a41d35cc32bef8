import type { components } from '../../../client/schema';

type Report = components['schemas']['PointsReport'];
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

/**
 * What the points report shows, as CSV (RFC 4180, CRLF): one row per day or month, then the whole
 * period. Every cell is a date or a whole number, so none needs quoting.
 */
export function reportCsv(report: Report): string {
  const lines = [COLUMNS.join(','), ...report.buckets.map((b) => row(b.start, b.end, b)), row(report.from, report.to, report.totals)];
  return `${lines.join('\r\n')}\r\n`;
}

/** The file's name: the period it covers. */
export const reportFileName = (report: Pick<Report, 'from' | 'to' | 'granularity'>) => `points-${report.from}-to-${report.to}-by-${report.granularity}.csv`;
