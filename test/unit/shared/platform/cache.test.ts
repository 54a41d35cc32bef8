import { describe, expect, it } from 'vitest';
import { TtlCache } from '../../../../shared/platform/cache';

/** A promise with its resolve function, to hold a read open. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, opened };
}

describe('per-container cache', () => {
  const clock = (start = 1_000) => {
    const c = { t: start, now: () => c.t };
    return c;
  };

  it('serves a value for ttl ms after it was read, then reads again', async () => {
    const c = clock();
    const cache = new TtlCache<string>(5_000, 10, c.now);
    let reads = 0;
    const read = async () => `v${++reads}`;
    expect(await cache.load('ws', read)).toBe('v1');
    c.t += 4_999;
    expect(await cache.load('ws', read)).toBe('v1');
    expect(cache.get('ws')).toBe('v1');
    c.t += 1;
    expect(cache.get('ws')).toBeUndefined();
    expect(cache.size).toBe(0);
    expect(await cache.load('ws', read)).toBe('v2');
    expect(reads).toBe(2);
  });

  it('keys are independent; set keeps a value written by this process', async () => {
    const c = clock();
    const cache = new TtlCache<number>(1_000, 10, c.now);
    cache.set('a', 1);
    c.t += 600;
    cache.set('b', 2);
    c.t += 500;
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBe(2);
    cache.set('b', 3);
    c.t += 999;
    expect(cache.get('b')).toBe(3);
  });

  it('invalidate forgets at once', async () => {
    const cache = new TtlCache<string>(60_000, 10);
    cache.set('ws', 'old');
    cache.invalidate('ws');
    expect(cache.get('ws')).toBeUndefined();
    expect(await cache.load('ws', async () => 'new')).toBe('new');
    expect(cache.get('ws')).toBe('new');
  });

  it('a read in flight during an invalidation is answered but not kept', async () => {
    const cache = new TtlCache<string>(60_000, 10);
    const held = gate();
    const stale = cache.load('ws', async () => {
      await held.opened;
      return 'read before the change';
    });
    cache.invalidate('other');
    held.open();
    expect(await stale).toBe('read before the change');
    expect(cache.get('ws')).toBeUndefined();
    expect(await cache.load('ws', async () => 'after')).toBe('after');
    expect(cache.get('ws')).toBe('after');
  });

  it("a value written again takes no other entry's place, and counts as new", () => {
    const cache = new TtlCache<number>(60_000, 2);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('b', 20);
    expect(cache.size).toBe(2);
    expect(cache.get('a')).toBe(1);
    cache.set('a', 10);
    cache.set('c', 3);
    // a was written after b: b is now the oldest.
    expect(cache.get('b')).toBeUndefined();
    expect([cache.get('a'), cache.get('c')]).toEqual([10, 3]);
  });

  it('holds at most maxEntries, dropping the oldest first', () => {
    const cache = new TtlCache<number>(60_000, 2);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('a', 10);
    cache.set('c', 3);
    expect(cache.size).toBe(2);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(10);
    expect(cache.get('c')).toBe(3);
  });
});
