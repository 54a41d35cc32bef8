import { describe, expect, it } from 'vitest';
import { reportCsv, reportFileName } from '../../../../shared/console/screens/overview/report-csv';

/** The points report as the Overview's CSV download writes it. */

const figures = (k: number) => ({
  issued: { base: 10 * k, campaign: 2 * k, manual: k, total: 13 * k },
  redeemed: 3 * k,
  reversed: 4 * k,
  expired: 5 * k,
  deducted: 6 * k,
  outstanding: 7 * k,
  pending: 8 * k,
});

const report = {
  from: '2026-11-01',
  to: '2026-11-02',
  granularity: 'day' as const,
  timeZone: 'Europe/Berlin',
  totals: { opening: 0, ...figures(3) },
  rates: { period: { redemption: null, breakage: null }, lifeToDate: { redemption: null, breakage: null } },
  liabilityByExpiry: [],
  value: [],
  buckets: [
    { start: '2026-11-01', end: '2026-11-01', ...figures(1) },
    { start: '2026-11-02', end: '2026-11-02', ...figures(2) },
  ],
};

describe('the points report as CSV', () => {
  it('one row per bucket, then the whole period, every figure in its column, CRLF line ends', () => {
    expect(reportCsv(report)).toBe(
      [
        'start,end,issued_base,issued_campaign,issued_manual,issued_total,redeemed,reversed,expired,deducted,outstanding,pending',
        '2026-11-01,2026-11-01,10,2,1,13,3,4,5,6,7,8',
        '2026-11-02,2026-11-02,20,4,2,26,6,8,10,12,14,16',
        '2026-11-01,2026-11-02,30,6,3,39,9,12,15,18,21,24',
        '',
      ].join('\r\n'),
    );
  });

  it('a period without buckets is the header and the total', () => {
    expect(reportCsv({ ...report, buckets: [] }).split('\r\n')).toHaveLength(3);
  });

  it('names the file by the period and granularity', () => {
    expect(reportFileName(report)).toBe('points-2026-11-01-to-2026-11-02-by-day.csv');
  });
});
