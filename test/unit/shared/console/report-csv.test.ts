import { describe, expect, it } from 'vitest';
import {
  campaignsCsv,
  campaignsFileName,
  cell,
  membersCsv,
  membersFileName,
  reportCsv,
  reportFileName,
} from '../../../../shared/console/screens/overview/report-csv';

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
  campaigns: [
    { campaignId: 'cmp_a', name: 'Double "gold", weekends', points: 500, rewards: 12, previousPoints: 300 },
    { campaignId: 'cmp_b', name: null, points: 40, rewards: 1, previousPoints: 0 },
  ],
  previous: { from: '2026-10-30', to: '2026-10-31', totals: { opening: 0, ...figures(5) } },
};

describe('the points report as CSV', () => {
  it('one row per bucket, then the period before, then the whole period, every figure in its column, CRLF line ends', () => {
    expect(reportCsv(report)).toBe(
      [
        'start,end,issued_base,issued_campaign,issued_manual,issued_total,redeemed,reversed,expired,deducted,outstanding,pending',
        '2026-11-01,2026-11-01,10,2,1,13,3,4,5,6,7,8',
        '2026-11-02,2026-11-02,20,4,2,26,6,8,10,12,14,16',
        '2026-10-30,2026-10-31,50,10,5,65,15,20,25,30,35,40',
        '2026-11-01,2026-11-02,30,6,3,39,9,12,15,18,21,24',
        '',
      ].join('\r\n'),
    );
  });

  it('a period without buckets is the header, the period before and the total', () => {
    expect(reportCsv({ ...report, buckets: [] }).split('\r\n')).toHaveLength(4);
  });

  it('names the file by the period and granularity', () => {
    expect(reportFileName(report)).toBe('points-2026-11-01-to-2026-11-02-by-day.csv');
  });
});

describe('the campaigns and members as CSV', () => {
  it('quotes a cell only when it must, doubling its quotes', () => {
    expect(cell('plain')).toBe('plain');
    expect(cell(12)).toBe('12');
    expect(cell(null)).toBe('');
    expect(cell('a,b')).toBe('"a,b"');
    expect(cell('say "hi"')).toBe('"say ""hi"""');
    expect(cell('two\nlines')).toBe('"two\nlines"');
    expect(cell('cr\r')).toBe('"cr\r"');
  });

  it('one row per campaign, a deleted one without a name', () => {
    expect(campaignsCsv(report)).toBe(
      ['campaign_id,name,points,rewards,previous_points', 'cmp_a,"Double ""gold"", weekends",500,12,300', 'cmp_b,,40,1,0', ''].join('\r\n'),
    );
    expect(campaignsFileName(report)).toBe('campaigns-2026-11-01-to-2026-11-02.csv');
  });

  it('the members, the active members against the period before, and each tier', () => {
    const members = {
      from: '2026-11-01',
      to: '2026-11-02',
      timeZone: 'UTC',
      members: 30,
      tiers: [
        { tier: 'bronze', name: 'Bronze', members: 20 },
        { tier: 'vip', name: 'V.I.P., by invitation', members: 10 },
      ],
      active: 7,
      previous: { from: '2026-10-30', to: '2026-10-31', active: 5 },
    };
    expect(membersCsv(members)).toBe(
      ['figure,value,previous', 'members,30,', 'active 2026-11-01 to 2026-11-02,7,5', 'tier Bronze,20,', '"tier V.I.P., by invitation",10,', ''].join('\r\n'),
    );
    const unknown = membersCsv({ ...members, active: null, previous: { ...members.previous, active: null } });
    expect(unknown.split('\r\n')[2]).toBe('active 2026-11-01 to 2026-11-02,,');
    expect(membersFileName(members)).toBe('members-2026-11-01-to-2026-11-02.csv');
  });
});
