import * as members from '../../data/repositories/members';
import { dueWorkspaces } from '../../data/repositories/program';
import { logger } from '../../observability/logger';
import type { MemberRecord } from '../../records/members';
import { event } from '../../events/outbox';
import { changePoints, NO_DELTA, type ChangePlan } from '../members/ledger';
import { programNow } from './clock';
import { activationsAt, expire, nextDueAt, warningDue } from './member-lots';
import type { ProgramRules } from './schemas';

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

export const DUE_JOBS: DueJob[] = [
  pointsJob,
  // The tier review (`reviewTiers(workspaceId, now)`, built with the tier windows) joins here, after
  // the points job, so it reviews balances that include this run's activations and expiries.
];

export async function runDueProgramWork(workspaceId: string, now: Date, jobs: readonly DueJob[] = DUE_JOBS): Promise<Record<string, number>> {
  const done: Record<string, number> = {};
  for (const job of jobs) done[job.name] = await job.run(workspaceId, now);
  return done;
}

/** The schedule's run: every workspace on the list, each at its own program time. */
export async function runAllDueProgramWork(real: Date = new Date()): Promise<{ workspaces: number; failed: number }> {
  let workspaces = 0;
  let failed = 0;
  for await (const ids of dueWorkspaces(100)) {
    for (const workspaceId of ids) {
      try {
        await runDueProgramWork(workspaceId, await programNow(workspaceId, real));
        workspaces++;
      } catch (error) {
        failed++;
        logger.error('program due work failed', { workspaceId, error: error as Error });
      }
    }
  }
  return { workspaces, failed };
}

/** Most steps one member takes in one run (each an activation, or a warning and expiry moment). */
const MAX_STEPS = 1000;

async function settleDueMembers(workspaceId: string, now: Date): Promise<number> {
  const seen = new Set<string>();
  let settled = 0;
  for (;;) {
    const due = (await members.dueMembers(workspaceId, now.toISOString(), 50)).filter((d) => !seen.has(d.memberId));
    if (due.length === 0) return settled;
    for (const { memberId } of due) {
      seen.add(memberId);
      try {
        settled += await settleMember(workspaceId, memberId, now.getTime());
      } catch (error) {
        // One member's failure (e.g. erased meanwhile) never stops the others; the next run retries it.
        logger.warn('program due work of a member failed', { workspaceId, memberId, error: error as Error });
      }
    }
  }
}

/** Runs the member's due moments one after another, each at its own time, up to `now`. */
async function settleMember(workspaceId: string, memberId: string, now: number): Promise<number> {
  let steps = 0;
  for (; steps < MAX_STEPS; steps++) {
    let at = now;
    const moved = await changePoints<boolean>(
      workspaceId,
      memberId,
      (member, rules) => {
        const due = member.lots ? nextDueAt(member.lots, rules.points) : null;
        if (due === null || due > now) return { done: false };
        at = due;
        return { plan: stepPlan(member, rules, due) };
      },
      {},
      undefined,
      () => new Date(at),
    );
    if (!moved) break;
  }
  return steps > 0 ? 1 : 0;
}

/** What falls due at `at`: the earliest pending activation, else the warnings and expiries of that moment. */
export function stepPlan(member: MemberRecord, rules: ProgramRules, at: number): ChangePlan<boolean> {
  const state = member.lots!;
  const { due } = activationsAt(state, at);
  const first = due.sort((a, b) => a.activatesAt - b.activatesAt)[0];
  if (first) {
    return {
      delta: { ...NO_DELTA, balance: first.points, pending: -first.points, lifetime: first.points },
      entry: {
        type: 'earn',
        reason: 'Pending points of an order activated',
        source: { type: 'order', orderId: first.orderId, externalOrderId: null, apiKeyId: null },
      },
      lotsBefore: { ...state, pending: state.pending.filter((p) => p !== first) },
      entryEvent: 'points.activated',
      result: () => true,
    };
  }
  const warn = warningDue(state, rules.points, at);
  const expired = expire(state, rules.points, at, member.balance);
  return {
    delta: { ...NO_DELTA, balance: -expired.points },
    entry: { type: 'expire', reason: 'Points expired', source: { type: 'program', orderId: null, externalOrderId: null, apiKeyId: null } },
    lots: { ...expired.state, warnedThrough: Math.max(state.warnedThrough, at) },
    events: warn ? [event('points.expiring_soon', { resource_id: member.id, member_ref: member.id, tier: member.tier })] : [],
    entryEvent: 'points.expired',
    result: () => true,
  };
}
