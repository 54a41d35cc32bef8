import { describe, expect, it } from 'vitest';
import { rateGuardSettings } from '../../../../shared/platform/config';
import { fixedWindow, guardKeyOf, rateWindows, retryAfterSeconds } from '../../../../shared/objects/rate-guard';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0); // a multiple of 10 s
const at = (ms: number) => new Date(T0 + ms);

describe('write-rate guard: settings', () => {
  it('with the default settings: a steady 20 writes a second always passes, 21 a second meets the 10-second limit, 41 in one second the burst limit', () => {
    /** Admits a write when every window it falls in is below its limit, as the store's conditions do; resolves the refused count. */
    const run = (writesAt: number[]) => {
      const counts = new Map<string, number>();
      let refused = 0;
      for (const ms of writesAt) {
        const windows = rateWindows(at(ms), rateGuardSettings({}));
        if (windows.some((w) => (counts.get(w.key) ?? 0) >= w.limit)) refused++;
        else for (const w of windows) counts.set(w.key, (counts.get(w.key) ?? 0) + 1);
      }
      return refused;
    };
    const evenly = (perSecond: number, seconds: number) => Array.from({ length: perSecond * seconds }, (_, i) => (i * 1000) / perSecond);
    expect(run(evenly(20, 60))).toBe(0);
    // 21/s: 210 per 10 s, of which 200 pass, in every 10-second window.
    expect(run(evenly(21, 60))).toBe(60);
    // A burst: 41 in 200 ms, then quiet; the next second has its own budget.
    expect(run([...Array.from({ length: 41 }, (_, i) => 100 + i), 1_100])).toBe(1);
  });

  it('takes overrides from the environment and refuses nonsense', () => {
    expect(rateGuardSettings({ OBJECTS_RATE_PER_SECOND: '3', OBJECTS_RATE_BURST: '5', OBJECTS_RATE_GUARD_TIMEOUT_MS: '2000' })).toEqual({
      perSecond: 3,
      burst: 5,
      windowSeconds: 10,
      timeoutMs: 2000,
    });
    expect(rateGuardSettings({ OBJECTS_RATE_BURST: '' }).burst).toBe(40);
    for (const bad of ['0', '-1', '2.5', 'abc']) expect(() => rateGuardSettings({ OBJECTS_RATE_BURST: bad })).toThrow(/OBJECTS_RATE_BURST/);
  });
});

describe('write-rate guard: window maths', () => {
  it('aligns fixed windows to the epoch and names them by size and start', () => {
    const start = T0 / 1000;
    expect(fixedWindow(T0 + 3_999, 1, 40)).toEqual({
      sizeSeconds: 1,
      start: start + 3,
      endsAtMs: T0 + 4_000,
      limit: 40,
      key: `1s:${start + 3}`,
      expiresAt: start + 4 + 60,
    });
    expect(fixedWindow(T0 + 9_999, 10, 200)).toMatchObject({ start, endsAtMs: T0 + 10_000, key: `10s:${start}` });
    expect(fixedWindow(T0 + 10_000, 10, 200)).toMatchObject({ start: start + 10, key: `10s:${start + 10}` });
  });

  it('counts a write in its 1-second window (40) and the 10-second window (200), shortest first', () => {
    const windows = rateWindows(at(5_300), rateGuardSettings({}));
    expect(windows.map((w) => [w.key, w.limit])).toEqual([
      [`1s:${T0 / 1000 + 5}`, 40],
      [`10s:${T0 / 1000}`, 200],
    ]);
    // The 1-second window always lies inside the 10-second one.
    for (let ms = 0; ms < 20_000; ms += 137) {
      const [short, long] = rateWindows(at(ms), rateGuardSettings({}));
      expect(short!.endsAtMs).toBeLessThanOrEqual(long!.endsAtMs);
      expect(short!.start).toBeGreaterThanOrEqual(long!.start);
    }
  });

  it('collapses a 1-second sustained window into the burst window with the stricter limit', () => {
    const windows = rateWindows(at(0), { perSecond: 20, burst: 40, windowSeconds: 1, timeoutMs: 300 });
    expect(windows).toHaveLength(1);
    expect(windows[0]).toMatchObject({ sizeSeconds: 1, limit: 20 });
  });

  it('Retry-After is the rest of the refusing window, rounded up, at least 1', () => {
    const [short, long] = rateWindows(at(5_300), rateGuardSettings({}));
    expect(retryAfterSeconds(long!, at(5_300))).toBe(5);
    expect(retryAfterSeconds(short!, at(5_300))).toBe(1);
    expect(retryAfterSeconds(long!, at(9_999))).toBe(1);
    expect(retryAfterSeconds(long!, at(0))).toBe(10);
  });

  it('keys the budget by API key, or by the user behind a session', () => {
    expect(guardKeyOf({ kind: 'apiKey', workspaceId: 'ws_1', keyId: 'key_1', scopes: [] })).toBe('key_1');
    expect(guardKeyOf({ kind: 'session', workspaceId: 'ws_1', userId: 'usr_1', role: 'member', tokenHash: 'h', expiresAt: 0 })).toBe('user:usr_1');
  });
});
