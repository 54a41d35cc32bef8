import type { WorkspaceRateOverride, WorkspaceRateSettings } from '../../platform/config';

/**
 * The arithmetic of a workspace's request budgets (`config.workspaceRate`): which budget a request
 * draws on, its limit, the fixed 1-second window it is counted in and the `RateLimit-*` answer.
 * No store and no clock of its own: `workspace-rate.ts` counts, this only computes.
 */

export type Budget = 'read' | 'write';

/** GET and HEAD read; every other method (POST, PUT, PATCH, DELETE, an MCP JSON-RPC call) writes. */
export const budgetOf = (method: string): Budget => (/^(GET|HEAD)$/i.test(method) ? 'read' : 'write');

/** A workspace's limit per second for `budget`: its own override, else its mode's (live or sandbox). */
export function limitOf(budget: Budget, sandbox: boolean, settings: WorkspaceRateSettings, override?: WorkspaceRateOverride): number {
  const own = override?.[budget];
  if (own !== undefined) return own;
  if (budget === 'read') return sandbox ? settings.sandboxRead : settings.read;
  return sandbox ? settings.sandboxWrite : settings.write;
}

/** Counters outlive their window by this long before the table's TTL may delete them. */
export const COUNTER_TTL_GRACE_SECONDS = 60;

/** The fixed window `[start, start + 1)` (epoch seconds) that holds `nowMs`. */
export interface SecondWindow {
  /** Epoch seconds. */
  start: number;
  /** Epoch ms at which the window ends (the next one starts). */
  endsAtMs: number;
  /** `1s:<start>`, the window's part of the counter's key. */
  key: string;
  /** TTL of the counter (epoch seconds): the window's end plus a minute. */
  expiresAt: number;
}

export function secondWindow(nowMs: number): SecondWindow {
  const start = Math.floor(nowMs / 1000);
  return { start, endsAtMs: (start + 1) * 1000, key: `1s:${start}`, expiresAt: start + 1 + COUNTER_TTL_GRACE_SECONDS };
}

/** Whole seconds until the window ends, at least 1: `RateLimit-Reset` and, when refused, `Retry-After`. */
export const resetSeconds = (window: SecondWindow, nowMs: number): number => Math.max(1, Math.ceil((window.endsAtMs - nowMs) / 1000));

/** What a request learnt of its budget: admitted or not, and what is left of the window. */
export interface BudgetState {
  admitted: boolean;
  limit: number;
  /** Requests still admitted in this window after this one (0 when refused). */
  remaining: number;
  /** Seconds until the window ends. */
  resetSeconds: number;
}

/** The state after the counter answered `count` (this request included), or `undefined` when full. */
export function stateOf(count: number | undefined, limit: number, window: SecondWindow, nowMs: number): BudgetState {
  const reset = resetSeconds(window, nowMs);
  if (count === undefined) return { admitted: false, limit, remaining: 0, resetSeconds: reset };
  return { admitted: true, limit, remaining: Math.max(0, limit - count), resetSeconds: reset };
}

/**
 * The answer's headers: the IETF draft's three fields (`RateLimit-Limit`, `-Remaining`, `-Reset`,
 * as GitHub and most APIs send them), and `Retry-After` on a refusal.
 */
export function budgetHeaders(state: BudgetState): Record<string, string> {
  const headers: Record<string, string> = {
    'ratelimit-limit': String(state.limit),
    'ratelimit-remaining': String(state.remaining),
    'ratelimit-reset': String(state.resetSeconds),
  };
  if (!state.admitted) headers['retry-after'] = String(state.resetSeconds);
  return headers;
}

/**
 * What this process itself admitted per workspace, budget and window: the in-process pre-check.
 * Other instances only add to a window's count, so once this process alone took `limit` slots (or
 * the counter refused one) the window is full and the request is refused here, without a store
 * call: a flood costs the counter at most `limit` calls a window per process, however fast it comes
 * and however slow the counter answers. "Clearly under" cannot be known locally, so an admission
 * always asks the counter. Should the counter not answer, this count alone bounds the process.
 *
 * Requests of a credential known to name the workspace are also held from before authentication
 * until they ask for their slot (`hold`, `release`): at a window's start the slots taken are none
 * yet, and without the holds a burst of one credential would all be authenticated (a store call
 * each) before the first of them took a slot. A window starts with the limit the previous one had.
 */
export class LocalWindows {
  private readonly windows = new Map<string, WindowEntry>();

  constructor(private readonly maxEntries = 10_000) {}

  /** Takes a local slot, or answers false when this process knows the window is full. */
  take(workspaceId: string, budget: Budget, window: SecondWindow, limit: number): boolean {
    const entry = this.entryOf(workspaceId, budget, window);
    entry.limit = limit;
    if (entry.taken >= limit) return false;
    entry.taken++;
    return true;
  }

  /**
   * Holds a request that will ask for a slot of this window once authenticated; or, when the slots
   * taken and the requests already held reach the window's limit, answers that limit and holds nothing.
   */
  hold(workspaceId: string, budget: Budget, window: SecondWindow): number | undefined {
    const entry = this.entryOf(workspaceId, budget, window);
    if (entry.taken + entry.held >= entry.limit) return entry.limit;
    entry.held++;
    return undefined;
  }

  /** The held request asks for its slot (or ended without): no longer held. A hold of a past window lapsed with it. */
  release(workspaceId: string, budget: Budget, window: SecondWindow): void {
    const entry = this.windows.get(`${workspaceId}:${budget}`);
    if (entry?.start === window.start && entry.held > 0) entry.held--;
  }

  /** Slots this process took in the window (the local estimate when the counter cannot answer). */
  taken(workspaceId: string, budget: Budget, window: SecondWindow): number {
    return this.entryOf(workspaceId, budget, window).taken;
  }

  /** The counter refused: nothing more is admitted in this window, here either. */
  markFull(workspaceId: string, budget: Budget, window: SecondWindow): void {
    this.entryOf(workspaceId, budget, window).taken = Number.POSITIVE_INFINITY;
  }

  private entryOf(workspaceId: string, budget: Budget, window: SecondWindow): WindowEntry {
    const key = `${workspaceId}:${budget}`;
    const entry = this.windows.get(key);
    if (entry?.start === window.start) return entry;
    // A new window: the entry moves to the end, so the oldest (least recently counted) is evicted first.
    this.windows.delete(key);
    if (this.windows.size >= this.maxEntries) this.windows.delete(this.windows.keys().next().value!);
    const fresh = { start: window.start, taken: 0, held: 0, limit: entry?.limit ?? Number.POSITIVE_INFINITY };
    this.windows.set(key, fresh);
    return fresh;
  }
}

interface WindowEntry {
  start: number;
  taken: number;
  /** Requests held before authentication, not yet asking for their slot. */
  held: number;
  /** The limit last asked for (the previous window's until a slot of this one is taken). */
  limit: number;
}
