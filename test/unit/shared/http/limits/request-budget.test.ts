import { describe, expect, it } from 'vitest';
import { workspaceRateOverrides, workspaceRateSettings } from '../../../../../shared/platform/config';
import {
  budgetHeaders,
  budgetOf,
  COUNTER_TTL_GRACE_SECONDS,
  limitOf,
  LocalWindows,
  resetSeconds,
  secondWindow,
  stateOf,
} from '../../../../../shared/http/limits/request-budget';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0); // a whole second
const S0 = T0 / 1000;
const DEFAULTS = workspaceRateSettings({});

describe('request budgets: the window arithmetic', () => {
  it('a request falls into the 1-second window that holds it, aligned to the epoch, its counter kept a minute past its end', () => {
    expect(secondWindow(T0)).toEqual({ start: S0, endsAtMs: T0 + 1000, key: `1s:${S0}`, expiresAt: S0 + 1 + COUNTER_TTL_GRACE_SECONDS });
    expect(COUNTER_TTL_GRACE_SECONDS).toBe(60);
    expect(secondWindow(T0 + 999).key).toBe(`1s:${S0}`);
    expect(secondWindow(T0 + 1000).key).toBe(`1s:${S0 + 1}`);
    expect(secondWindow(T0 - 1).key).toBe(`1s:${S0 - 1}`);
  });

  it('Reset (and Retry-After) is the whole seconds until the window ends, never 0', () => {
    const w = secondWindow(T0);
    expect(resetSeconds(w, T0)).toBe(1);
    expect(resetSeconds(w, T0 + 999)).toBe(1);
    expect(resetSeconds(w, T0 + 1000)).toBe(1);
    expect(resetSeconds({ ...w, endsAtMs: T0 + 2500 }, T0)).toBe(3);
    expect(resetSeconds({ ...w, endsAtMs: T0 + 2000 }, T0)).toBe(2);
  });

  it('the state after the counter answered: what is left of the limit, and a refusal has none left', () => {
    const w = secondWindow(T0);
    expect(stateOf(1, 100, w, T0 + 200)).toEqual({ admitted: true, limit: 100, remaining: 99, resetSeconds: 1 });
    expect(stateOf(100, 100, w, T0)).toEqual({ admitted: true, limit: 100, remaining: 0, resetSeconds: 1 });
    // A limit lowered within the window: never a negative remainder.
    expect(stateOf(7, 5, w, T0).remaining).toBe(0);
    expect(stateOf(undefined, 25, w, T0)).toEqual({ admitted: false, limit: 25, remaining: 0, resetSeconds: 1 });
  });

  it('the headers: RateLimit-Limit, -Remaining and -Reset on every counted answer, Retry-After only on a refusal', () => {
    expect(budgetHeaders({ admitted: true, limit: 100, remaining: 42, resetSeconds: 1 })).toEqual({
      'ratelimit-limit': '100',
      'ratelimit-remaining': '42',
      'ratelimit-reset': '1',
    });
    expect(budgetHeaders({ admitted: false, limit: 25, remaining: 0, resetSeconds: 2 })).toEqual({
      'ratelimit-limit': '25',
      'ratelimit-remaining': '0',
      'ratelimit-reset': '2',
      'retry-after': '2',
    });
  });
});

describe('request budgets: which budget and which limit', () => {
  it('GET and HEAD read; every other method writes', () => {
    expect(['GET', 'get', 'HEAD', 'head'].map(budgetOf)).toEqual(['read', 'read', 'read', 'read']);
    expect(['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'GETX', 'XGET'].map(budgetOf)).toEqual(Array(7).fill('write'));
  });

  it('the defaults: 100 reads and 100 writes a second live, 25 each in a sandbox', () => {
    expect(limitOf('read', false, DEFAULTS)).toBe(100);
    expect(limitOf('write', false, DEFAULTS)).toBe(100);
    expect(limitOf('read', true, DEFAULTS)).toBe(25);
    expect(limitOf('write', true, DEFAULTS)).toBe(25);
  });

  it('each limit comes from its own setting, and a workspace override replaces its budget whatever the mode', () => {
    const s = { read: 1, write: 2, sandboxRead: 3, sandboxWrite: 4, timeoutMs: 5 };
    expect([limitOf('read', false, s), limitOf('write', false, s), limitOf('read', true, s), limitOf('write', true, s)]).toEqual([1, 2, 3, 4]);
    expect(limitOf('read', true, s, { read: 500 })).toBe(500);
    expect(limitOf('read', false, s, { read: 500 })).toBe(500);
    expect(limitOf('write', true, s, { read: 500 })).toBe(4);
    expect(limitOf('write', false, s, { write: 9 })).toBe(9);
  });

  it('settings from the environment, and nonsense refused', () => {
    expect(workspaceRateSettings({ WORKSPACE_READ_PER_SECOND: '7', SANDBOX_WRITE_PER_SECOND: '3', WORKSPACE_RATE_TIMEOUT_MS: '2000' })).toEqual({
      read: 7,
      write: 100,
      sandboxRead: 25,
      sandboxWrite: 3,
      timeoutMs: 2000,
    });
    expect(() => workspaceRateSettings({ WORKSPACE_WRITE_PER_SECOND: '0' })).toThrow(/WORKSPACE_WRITE_PER_SECOND must be a positive integer/);
  });

  it('WORKSPACE_RATE_LIMITS: per workspace, read and/or write; anything malformed is refused at start', () => {
    expect(workspaceRateOverrides({})).toEqual(new Map());
    expect(workspaceRateOverrides({ WORKSPACE_RATE_LIMITS: ' ' })).toEqual(new Map());
    expect(workspaceRateOverrides({ WORKSPACE_RATE_LIMITS: '{"ws_a":{"read":500,"write":200},"ws_b":{"write":5}}' })).toEqual(
      new Map([
        ['ws_a', { read: 500, write: 200 }],
        ['ws_b', { write: 5 }],
      ]),
    );
    for (const bad of [
      'nope',
      '[]',
      'null',
      '{"ws_a":3}',
      '{"ws_a":[]}',
      '{"ws_a":{"reads":5}}',
      '{"ws_a":{"read":0}}',
      '{"ws_a":{"read":1.5}}',
      '{"ws_a":{"read":"5"}}',
    ]) {
      expect(() => workspaceRateOverrides({ WORKSPACE_RATE_LIMITS: bad }), bad).toThrow(/WORKSPACE_RATE_LIMITS must be a JSON object/);
    }
  });
});

describe('request budgets: the in-process pre-check', () => {
  const w = secondWindow(T0);

  it('admits up to the limit a window in this process, then refuses without asking; the next window starts afresh', () => {
    const local = new LocalWindows();
    const took = Array.from({ length: 5 }, () => local.take('ws_a', 'read', w, 3));
    expect(took).toEqual([true, true, true, false, false]);
    expect(local.taken('ws_a', 'read', w)).toBe(3);
    // Another budget, another workspace: their own counts.
    expect(local.take('ws_a', 'write', w, 3)).toBe(true);
    expect(local.take('ws_b', 'read', w, 3)).toBe(true);
    const next = secondWindow(T0 + 1000);
    expect(local.taken('ws_a', 'read', next)).toBe(0);
    expect(local.take('ws_a', 'read', next, 3)).toBe(true);
  });

  it('a window the counter refused is full here too, until it ends', () => {
    const local = new LocalWindows();
    expect(local.take('ws_a', 'read', w, 100)).toBe(true);
    local.markFull('ws_a', 'read', w);
    expect(local.take('ws_a', 'read', w, 100)).toBe(false);
    expect(local.take('ws_a', 'write', w, 100)).toBe(true);
    expect(local.take('ws_a', 'read', secondWindow(T0 + 1000), 100)).toBe(true);
  });

  it('refuses a hold (answering the limit) only once this process filled the window or the counter refused, and takes no slot', () => {
    const local = new LocalWindows();
    expect(local.take('ws_a', 'write', w, 2)).toBe(true);
    expect(local.take('ws_a', 'write', w, 2)).toBe(true);
    expect(local.hold('ws_a', 'write', w)).toBe(2);
    // Refusing counted nothing, and the other budget and another workspace are not full.
    expect(local.taken('ws_a', 'write', w)).toBe(2);
    expect(local.hold('ws_a', 'read', w)).toBeUndefined();
    expect(local.hold('ws_b', 'write', w)).toBeUndefined();
    local.take('ws_b', 'read', w, 50);
    local.markFull('ws_b', 'read', w);
    expect(local.hold('ws_b', 'read', w)).toBe(50);
  });

  it("counts held requests against the window until released; a window starts with the previous one's limit", () => {
    const local = new LocalWindows();
    // No limit known yet (nothing taken ever): every request is held, none refused.
    expect(Array.from({ length: 5 }, () => local.hold('ws_a', 'write', w))).toEqual(Array(5).fill(undefined));
    for (let i = 0; i < 5; i++) local.release('ws_a', 'write', w);
    expect(local.take('ws_a', 'write', w, 3)).toBe(true);
    expect(local.hold('ws_a', 'write', w)).toBeUndefined();
    expect(local.hold('ws_a', 'write', w)).toBeUndefined();
    // One taken and two held reach the limit of 3.
    expect(local.hold('ws_a', 'write', w)).toBe(3);
    local.release('ws_a', 'write', w);
    expect(local.hold('ws_a', 'write', w)).toBeUndefined();
    expect(local.hold('ws_a', 'write', w)).toBe(3);
    // The next window: nothing taken or held, the limit of the last one.
    const next = secondWindow(T0 + 1000);
    expect([local.hold('ws_a', 'write', next), local.hold('ws_a', 'write', next), local.hold('ws_a', 'write', next)]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    expect(local.hold('ws_a', 'write', next)).toBe(3);
    expect(local.taken('ws_a', 'write', next)).toBe(0);
    // A release of the past window frees nothing in this one; releasing more than was held frees no extra.
    local.release('ws_a', 'write', w);
    expect(local.hold('ws_a', 'write', next)).toBe(3);
    for (let i = 0; i < 5; i++) local.release('ws_a', 'write', next);
    expect(local.take('ws_a', 'write', next, 3)).toBe(true);
    expect([local.hold('ws_a', 'write', next), local.hold('ws_a', 'write', next), local.hold('ws_a', 'write', next)]).toEqual([undefined, undefined, 3]);
  });

  it('keeps at most maxEntries workspaces, forgetting the one counted longest ago', () => {
    const local = new LocalWindows(2);
    local.take('ws_a', 'read', w, 1);
    local.take('ws_b', 'read', w, 1);
    local.take('ws_c', 'read', w, 1);
    // ws_a was forgotten: it counts afresh; ws_c is still full.
    expect(local.taken('ws_c', 'read', w)).toBe(1);
    expect(local.take('ws_c', 'read', w, 1)).toBe(false);
    expect(local.taken('ws_a', 'read', w)).toBe(0);
  });
});
