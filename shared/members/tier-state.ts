/**
 * A member's tier at one instant: reads the stored tier state (or what a member without one has:
 * the tier as stored, reached at enrolment, no retention, no days counted), evaluates it with the
 * program's tier rules at the time of the change, and gives the state to store with the change.
 * Calendar windows (a calendar year, a day's bucket) are taken in the program's time zone.
 */
import type { MemberRecord, MemberTierRecord } from './entities';
import { type ProgramRules, evaluateTier, windowMetric, type TierDays, type TierState } from '../program';

const ms = (iso: string) => Date.parse(iso);

export function tierStateOf(member: Pick<MemberRecord, 'tier' | 'createdAt'>, record: MemberTierRecord | undefined): { state: TierState; days: TierDays } {
  return {
    state: { tier: member.tier, reachedAt: ms(record?.reachedAt ?? member.createdAt), retainedUntil: record ? ms(record.retainedUntil) : 0 },
    days: record?.days ?? {},
  };
}

export interface MemberTierOutcome {
  tier: string;
  change: 'upgraded' | 'downgraded' | null;
  /** The metric in the window at the evaluation. */
  value: number;
  record: MemberTierRecord;
}

/** The lifetime counters' metric (what a lifetime window counts). */
export const lifetimeMetric = (m: Pick<MemberRecord, 'lifetime' | 'orderCount'>, rules: ProgramRules) =>
  rules.tiers.metric === 'order_count' ? m.orderCount : m.lifetime;

/**
 * The tier after a change at `at`: `next` are the member's counters after it, `points` and `orders`
 * what the change adds to the metric (negative for a reversal).
 */
export function evaluateMemberTier(
  member: MemberRecord,
  record: MemberTierRecord | undefined,
  change: { next: Pick<MemberRecord, 'lifetime' | 'orderCount'>; points: number; orders: number },
  rules: ProgramRules,
  at: Date,
): MemberTierOutcome {
  const { state, days } = tierStateOf(member, record);
  const now = at.getTime();
  const lifetimeValue = lifetimeMetric(change.next, rules);
  const e = evaluateTier({ state, days, lifetimeValue, points: change.points, orders: change.orders }, rules.tiers, now, rules.timeZone);
  const iso = (t: number) => new Date(t).toISOString();
  return {
    tier: e.decision.tier,
    change: e.decision.change,
    value: e.value,
    record: {
      memberId: member.id,
      reachedAt: iso(e.decision.reachedAt),
      retainedUntil: iso(e.decision.retainedUntil),
      days: e.days,
      reviewAt: e.reviewAt === null ? null : iso(e.reviewAt),
    },
  };
}

/** The metric at `at` without any change: the window's days, or the lifetime counters. */
export function metricNow(member: MemberRecord, record: MemberTierRecord | undefined, rules: ProgramRules, at: Date): number {
  return rules.tiers.window === 'lifetime' ? lifetimeMetric(member, rules) : windowMetric(record?.days ?? {}, rules.tiers, at.getTime(), rules.timeZone);
}
