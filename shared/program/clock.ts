import { config } from '../platform/config';
import * as accounts from '../auth';
import { conflict, notFound } from '../platform/errors';
import { audited, type AuditContext } from '../audit';
import { TtlCache } from '../platform/cache';
import { sealSteps, type WriteOptions } from '../platform/data/write-options';
import { DAY_MS } from './calendar';

/**
 * The program clock of a workspace: real time for a live workspace; for a sandbox, real time plus
 * the offset an admin advanced it by. Every program time (earn and spend times, lot expiry, pending
 * activation, campaign windows) reads it, so a sandbox can rehearse a year in seconds.
 *
 * The offset is kept per process like the program rules (`config.caches.programRulesMs`); the
 * process that advances the clock sees the new time at once, and so do the due-work runs it starts.
 */
interface ClockState {
  sandbox: boolean;
  offsetMs: number;
}

const cache = new TtlCache<ClockState>(config.caches.programRulesMs, config.caches.maxEntries);

async function clockState(workspaceId: string): Promise<ClockState> {
  return cache.load(workspaceId, async () => {
    const w = await accounts.getWorkspaceRecord(workspaceId);
    return { sandbox: w?.sandbox ?? false, offsetMs: w?.sandbox ? (w.clockOffsetMs ?? 0) : 0 };
  });
}

/** The workspace's program time now. */
export async function programNow(workspaceId: string, real: Date = new Date()): Promise<Date> {
  const { offsetMs } = await clockState(workspaceId);
  return new Date(real.getTime() + offsetMs);
}

export interface Clock {
  now: string;
}

async function sandboxClock(workspaceId: string): Promise<ClockState> {
  const state = await clockState(workspaceId);
  if (!state.sandbox) throw conflict('Only a sandbox workspace has a clock that moves; a live workspace runs on real time');
  return state;
}

export async function getClock(workspaceId: string, real: Date = new Date()): Promise<Clock> {
  const state = await sandboxClock(workspaceId);
  return { now: new Date(real.getTime() + state.offsetMs).toISOString() };
}

/**
 * Moves a sandbox clock `days` ahead (never back) and answers once `runDue` has run everything that
 * fell due up to the new time. The stored offset is read afresh, so the move is exact however
 * many processes hold an older one.
 */
export async function advanceClock(
  workspaceId: string,
  days: number,
  audit: AuditContext,
  runDue: (workspaceId: string, now: Date) => Promise<unknown>,
  write: WriteOptions<Clock> = {},
  real: Date = new Date(),
): Promise<Clock> {
  await sandboxClock(workspaceId);
  cache.invalidate(workspaceId);
  const stored = await accounts.getWorkspaceRecord(workspaceId);
  if (!stored) throw notFound('Workspace');
  const from = stored.clockOffsetMs ?? 0;
  const to = from + days * DAY_MS;
  const now = new Date(real.getTime() + to);
  const answer: Clock = { now: now.toISOString() };
  await accounts.setClockOffset(workspaceId, from, to, [
    audited(workspaceId, audit, 'program.clock_advanced', { type: 'workspace', id: workspaceId }, real),
    ...sealSteps(write, answer),
  ]);
  cache.set(workspaceId, { sandbox: true, offsetMs: to });
  await runDue(workspaceId, now);
  return answer;
}
