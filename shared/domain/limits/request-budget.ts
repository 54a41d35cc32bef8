import type { WorkspaceRateOverride, WorkspaceRateSettings } from '../../config';

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
 * The windows this process knows to be full, per workspace and budget: a request in a full window
 * is refused here without a store call, so a flood costs the counter at most `limit + 1` writes a
 * second whatever its rate. Only "full" is known locally (the counter never shrinks within a
 * window); "clearly under" cannot be, since other instances count too.
 */
export class FullWindows {
  private readonly full = new Map<string, number>();

  constructor(private readonly maxEntries = 10_000) {}

  isFull(workspaceId: string, budget: Budget, window: SecondWindow): boolean {
    return this.full.get(`${workspaceId}:${budget}`) === window.start;
  }

  /** Notes that `window` admits nothing more (the counter refused, or this request took the last slot). */
  markFull(workspaceId: string, budget: Budget, window: SecondWindow): void {
    const key = `${workspaceId}:${budget}`;
    this.full.delete(key);
    if (this.full.size >= this.maxEntries) this.full.delete(this.full.keys().next().value!);
    this.full.set(key, window.start);
  }
}
