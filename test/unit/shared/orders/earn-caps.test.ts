import { describe, expect, it } from 'vitest';
import { allowance, capsConfigured, counted, periodsAt, usageAt, withinAllowance, type CapUsage } from '../../../../shared/orders/earn-caps';
import type { EarnCaps } from '../../../../shared/program/entities';

const NO_CAPS: EarnCaps = { baseDaily: null, baseMonthly: null, campaignDaily: null, campaignMonthly: null };
const usage = (over: Partial<CapUsage> = {}): CapUsage => ({
  day: '2026-12-07',
  month: '2026-12',
  dayBase: 0,
  dayCampaign: 0,
  monthBase: 0,
  monthCampaign: 0,
  ...over,
});

describe('earning caps', () => {
  it('are configured when any one of the four is set', () => {
    expect(capsConfigured(NO_CAPS)).toBe(false);
    expect(capsConfigured({ ...NO_CAPS, baseDaily: 1 })).toBe(true);
    expect(capsConfigured({ ...NO_CAPS, baseMonthly: 1 })).toBe(true);
    expect(capsConfigured({ ...NO_CAPS, campaignDaily: 1 })).toBe(true);
    expect(capsConfigured({ ...NO_CAPS, campaignMonthly: 1 })).toBe(true);
  });

  it("count in the program's days and months, in its time zone", () => {
    const at = Date.parse('2026-12-31T23:30:00Z');
    expect(periodsAt(at, 'UTC')).toEqual({ day: '2026-12-31', month: '2026-12' });
    expect(periodsAt(at, 'Europe/Berlin')).toEqual({ day: '2027-01-01', month: '2027-01' });
    expect(periodsAt(Date.parse('0999-03-04T12:00:00Z'), 'UTC')).toEqual({ day: '0999-03-04', month: '0999-03' });
  });

  it('what was counted on another day counts no more that day; in another month, no more that month', () => {
    const stored = usage({ dayBase: 5, dayCampaign: 6, monthBase: 7, monthCampaign: 8 });
    expect(usageAt(stored, { day: '2026-12-07', month: '2026-12' })).toEqual(stored);
    expect(usageAt(stored, { day: '2026-12-08', month: '2026-12' })).toEqual(usage({ day: '2026-12-08', monthBase: 7, monthCampaign: 8 }));
    expect(usageAt(stored, { day: '2027-01-01', month: '2027-01' })).toEqual(usage({ day: '2027-01-01', month: '2027-01' }));
    expect(usageAt(undefined, { day: '2026-12-07', month: '2026-12' })).toEqual(usage());
  });

  it('allow the smaller of what the day and the month leave, never below zero; no cap allows everything', () => {
    const caps: EarnCaps = { baseDaily: 100, baseMonthly: 1000, campaignDaily: 50, campaignMonthly: 60 };
    expect(allowance(caps, usage({ dayBase: 30, monthBase: 30 }), 'base')).toBe(70);
    expect(allowance(caps, usage({ dayBase: 30, monthBase: 950 }), 'base')).toBe(50);
    expect(allowance(caps, usage({ dayBase: 130, monthBase: 130 }), 'base')).toBe(0);
    expect(allowance(caps, usage({ dayCampaign: 10, monthCampaign: 10 }), 'campaign')).toBe(40);
    expect(allowance(caps, usage({ dayCampaign: 10, monthCampaign: 30 }), 'campaign')).toBe(30);
    expect(allowance(NO_CAPS, usage({ dayBase: 1e9 }), 'base')).toBe(Infinity);
    expect(allowance({ ...NO_CAPS, baseMonthly: 10 }, usage({ dayBase: 99, monthBase: 4 }), 'base')).toBe(6);
    expect(allowance({ ...NO_CAPS, campaignDaily: 10 }, usage({ dayBase: 9, dayCampaign: 4, monthCampaign: 9 }), 'campaign')).toBe(6);
  });

  it('count base and campaign points in both periods', () => {
    expect(counted(usage({ dayBase: 1, dayCampaign: 2, monthBase: 3, monthCampaign: 4 }), 10, 20)).toEqual(
      usage({ dayBase: 11, dayCampaign: 22, monthBase: 13, monthCampaign: 24 }),
    );
  });

  it('let rewards take what is left in their order; a reward left nothing is dropped, a coupon kept', () => {
    const g = (id: string, points: number) => ({ id, points });
    expect(withinAllowance([g('a', 30), g('b', 30), g('c', 30)], 50)).toEqual([g('a', 30), g('b', 20)]);
    expect(withinAllowance([g('a', 30), g('coupon', 0), g('b', 30)], 30)).toEqual([g('a', 30), g('coupon', 0)]);
    expect(withinAllowance([g('a', 30)], 0)).toEqual([]);
    expect(withinAllowance([g('a', 30)], 30)).toEqual([g('a', 30)]);
    expect(withinAllowance([g('a', 30)], Infinity)).toEqual([g('a', 30)]);
    const kept = g('a', 10);
    expect(withinAllowance([kept], 20)[0]).toBe(kept); // untouched when it fits
  });
});
