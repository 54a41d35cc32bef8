import * as members from '../members';
import { dueWorkspaces, programNow, type ProgramRules } from '../program';
import { config } from '../platform/config';
import { logger } from '../platform/observability/logger';
import { runInLanes } from '../platform/validation/batch';
import {
  type MemberRecord,
  changePoints,
  EXPIRY,
  NO_DELTA,
  type ChangePlan,
  reviewTiers,
  activationsAt,
  expire,
  nextDueAt,
  warningDue,
  parseClaim,
  tableLedgerStore,
  ACTIVATION_REASON,
} from '../members';
import { event } from '../platform/events/outbox';
import { voidExpiredRedemptions } from '../rewards';
import { runTriggerWork } from './trigger-work';

/**
 * Program work that falls due with time, run for one workspace up to its program time `now`: by the
 * schedule (AWS: an EventBridge rule; locally: the local scheduler) for every workspace on the list,
 * and by a sandbox's clock advance before it answers. Each job finds its work through an index of
 * due times, never by reading every member, and is safe to run again (what ran is no longer due).
 */
export interface DueJob {
  name: string;
  run(workspaceId: string, now: Date): Promise<number>;
}

/** Per member, in time order: activate pending points, send expiry warnings, expire lots. */
const pointsJob: DueJob = { name: 'points', run: settleDueMembers };

/** The tier review: members whose retention ended or whose window rolled by `now` (a downgrade each). */
const tiersJob: DueJob = { name: 'tiers', run: async (workspaceId, now) => (await reviewTiers(workspaceId, now)).changed.length };

/** Birthdays and inactivity spells: the campaigns' rewards of what occurred by `now` (`trigger-work.ts`). */
const triggersJob: DueJob = { name: 'triggers', run: runTriggerWork };

/** Redemptions whose code expired unused, of rewards that give the points back then (`voidWhenExpired`). */
const redemptionsJob: DueJob = { name: 'redemptions', run: (workspaceId, now) => voidExpiredRedemptions(workspaceId, now, tableLedgerStore) };

/**
 * After the points job, so the tier review sees the balances this run's activations and expiries
 * left; the triggers last, so a reward lands on a member whose points and tier are up to date. The
 * voids of expired redemptions first: their points come back as lots the points job then sees.
 */
export const DUE_JOBS: DueJob[] = [redemptionsJob, pointsJob, tiersJob, triggersJob];

export async function runDueProgramWork(workspaceId: string, now: Date, jobs: readonly DueJob[] = DUE_JOBS): Promise<Record<string, number>> {
  const done: Record<string, number> = {};
  for (const job of jobs) done[job.name] = await job.run(workspaceId, now);
  return done;
}

/** The schedule's run: every workspace on the list, each at its own program time. */
export async function runAllDueProgramWork(real: Date = new Date(), jobs: readonly DueJob[] = DUE_JOBS): Promise<{ workspaces: number; failed: number }> {
  let workspaces = 0;
  let failed = 0;
  for await (const ids of dueWorkspaces(100)) {
    for (const workspaceId of ids) {
      try {
        await runDueProgramWork(workspaceId, await programNow(workspaceId, real), jobs);
        workspaces++;
      } catch (error) {
        failed++;
        logger.error('program due work failed', { workspaceId, error: error as Error });
      }
    }
  }
  return { workspaces, failed };
}

const DUE_PAGE = 50;

/** Most steps one member takes in one run (each an activation, or a warning and expiry moment). */
const MAX_STEPS = 1000;

async function settleDueMembers(workspaceId: string, now: Date): Promise<number> {
  const seen = new Set<string>();
  let settled = 0;
  for (;;) {
    const page = await members.dueMembers(workspaceId, now.toISOString(), DUE_PAGE);
    const due = page.filter((d) => !seen.has(d.memberId));
    for (const { memberId } of due) seen.add(memberId);
    // Members are independent (each its own item and transaction): several at a time.
    const done = await runInLanes(
      due,
      (d) => d.memberId,
      config.programDue.memberConcurrency,
      async ({ memberId }) => {
        try {
          return await settleMember(workspaceId, memberId, now.getTime());
        } catch (error) {
          // One member's failure (e.g. erased meanwhile) never stops the others; the next run retries it.
          logger.warn('program due work of a member failed', { workspaceId, memberId, error: error as Error });
          return 0;
        }
      },
    );
    settled += done.reduce((sum, n) => sum + n, 0);
    // A short page was the whole of what is due: the members settled are no longer in the index.
    if (page.length < DUE_PAGE || due.length === 0) return settled;
  }
}

/** Runs the member's due moments one after another, each at its own time, up to `now`. */
async function settleMember(workspaceId: string, memberId: string, now: number): Promise<number> {
  let steps = 0;
  for (let more: boolean | null = true; more && steps < MAX_STEPS; ) {
    let at = now;
    more = await changePoints<boolean | null>({
      store: tableLedgerStore,
      workspaceId,
      memberId,
      plan: (member, rules) => {
        const due = member.lots ? nextDueAt(member.lots, rules.points) : null;
        // Nothing due after all (another run was first): nothing written.
        if (due === null || due > now) return { done: null };
        at = due;
        const plan = stepPlan(member, rules, due);
        // Whether more falls due by `now`, read from the member as this step leaves it (no read again).
        return { plan: { ...plan, result: ({ member: after }) => isDue(after, rules, now) } };
      },
      now: () => new Date(at),
    });
    if (more !== null) steps++;
  }
  return steps > 0 ? 1 : 0;
}

function isDue(member: MemberRecord, rules: ProgramRules, now: number): boolean {
  const next = member.lots ? nextDueAt(member.lots, rules.points) : null;
  return next !== null && next <= now;
}

/** What falls due at `at`: the earliest pending activation, else the warnings and expiries of that moment. */
export function stepPlan(member: MemberRecord, rules: ProgramRules, at: number): ChangePlan<boolean> {
  const state = member.lots!;
  const { due } = activationsAt(state, at);
  const first = due.sort((a, b) => a.activatesAt - b.activatesAt)[0];
  if (first) {
    // A campaign's share of an order activates as a campaign entry of its own (`claims.ts`).
    const { orderId, campaignId } = parseClaim(first.orderId);
    return {
      delta: { ...NO_DELTA, balance: first.points, pending: -first.points, lifetime: first.points },
      entry: campaignId
        ? {
            type: 'campaign',
            reason: 'Campaign points of an order activated',
            source: { type: 'campaign', orderId, externalOrderId: null, apiKeyId: null, campaignId },
          }
        : { type: 'earn', reason: ACTIVATION_REASON, source: { type: 'order', orderId, externalOrderId: null, apiKeyId: null } },
      lotsBefore: { ...state, pending: state.pending.filter((p) => p !== first) },
      entryEvent: 'points.activated',
      ...(first.announced ? { announced: true } : {}),
      result: () => true,
    };
  }
  const warn = warningDue(state, rules.points, at);
  const expired = expire(state, rules.points, at, member.balance);
  return {
    delta: { ...NO_DELTA, balance: -expired.points },
    entry: EXPIRY,
    lots: { ...expired.state, warnedThrough: Math.max(state.warnedThrough, at) },
    events: warn ? [event('points.expiring_soon', { resource_id: member.id, member_ref: member.id, tier: member.tier })] : [],
    entryEvent: 'points.expired',
    result: () => true,
  };
}
