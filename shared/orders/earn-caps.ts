/**
 * Earning caps per member: what a member may still earn from orders this program day and month,
 * base points and campaign rewards apart. Pure; the counts live on one item per member
 * (`orders/caps-repository.ts`), written in the order's own transaction under a condition, so two
 * orders at once can never both spend the same allowance.
 */
import { type EarnCaps, localDate } from '../program';
import type { EarnCapsRecord } from './entities';

/** What a member earned from orders in the current day and month (the periods named by their local dates). */
export type CapUsage = Omit<EarnCapsRecord, 'version'>;

export const capsConfigured = (caps: EarnCaps): boolean =>
  caps.baseDaily !== null || caps.baseMonthly !== null || caps.campaignDaily !== null || caps.campaignMonthly !== null;

/** The program day and month of an instant: `2026-12-07`, `2026-12`. */
export function periodsAt(instant: number, timeZone: string): { day: string; month: string } {
  const d = localDate(instant, timeZone);
  const month = `${String(d.year).padStart(4, '0')}-${String(d.month).padStart(2, '0')}`;
  return { day: `${month}-${String(d.day).padStart(2, '0')}`, month };
}

/** The usage now: what was counted in another day or month counts no more. */
export function usageAt(stored: CapUsage | undefined, periods: { day: string; month: string }): CapUsage {
  const sameDay = stored?.day === periods.day;
  const sameMonth = stored?.month === periods.month;
  return {
    ...periods,
    dayBase: sameDay ? stored.dayBase : 0,
    dayCampaign: sameDay ? stored.dayCampaign : 0,
    monthBase: sameMonth ? stored.monthBase : 0,
    monthCampaign: sameMonth ? stored.monthCampaign : 0,
  };
}

/** Points of one kind still allowed today and this month (Infinity: no cap for that kind). */
export function allowance(caps: EarnCaps, usage: CapUsage, kind: 'base' | 'campaign'): number {
  const [daily, monthly, usedDay, usedMonth] =
    kind === 'base'
      ? [caps.baseDaily, caps.baseMonthly, usage.dayBase, usage.monthBase]
      : [caps.campaignDaily, caps.campaignMonthly, usage.dayCampaign, usage.monthCampaign];
  const left = Math.min(daily === null ? Infinity : daily - usedDay, monthly === null ? Infinity : monthly - usedMonth);
  return Math.max(0, left);
}

/** The usage once an order's base points and campaign points are counted. */
export const counted = (usage: CapUsage, base: number, campaign: number): CapUsage => ({
  ...usage,
  dayBase: usage.dayBase + base,
  monthBase: usage.monthBase + base,
  dayCampaign: usage.dayCampaign + campaign,
  monthCampaign: usage.monthCampaign + campaign,
});

/**
 * Rewards within what is left, highest priority first (their order): each points reward takes what
 * remains, one that would get none is dropped; a reward of no points (a coupon) is kept.
 */
export function withinAllowance<G extends { points: number }>(grants: readonly G[], left: number): G[] {
  const kept: G[] = [];
  let remaining = left;
  for (const g of grants) {
    if (g.points === 0) {
      kept.push(g);
      continue;
    }
    const points = Math.min(g.points, remaining);
    if (points <= 0) continue;
    remaining -= points;
    kept.push(points === g.points ? g : { ...g, points });
  }
  return kept;
}
