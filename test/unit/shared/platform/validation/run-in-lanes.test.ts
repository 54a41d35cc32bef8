import { describe, expect, it } from 'vitest';
import { runInLanes } from '../../../../../shared/platform/validation/batch';

/** Work that records how many calls are in flight at once, and the order calls start and end in. */
function tracked() {
  let inFlight = 0;
  const seen = { most: 0, started: [] as number[], lanesInFlight: new Map<string, number>(), overlapInLane: false };
  const fn = async (item: { lane: string; n: number; ms: number }) => {
    inFlight++;
    seen.most = Math.max(seen.most, inFlight);
    seen.started.push(item.n);
    const inLane = (seen.lanesInFlight.get(item.lane) ?? 0) + 1;
    seen.lanesInFlight.set(item.lane, inLane);
    if (inLane > 1) seen.overlapInLane = true;
    await new Promise((r) => setTimeout(r, item.ms));
    seen.lanesInFlight.set(item.lane, inLane - 1);
    inFlight--;
    return item.n * 10;
  };
  return { seen, fn };
}

describe('runInLanes (the due work settles members this way, 8 at a time)', () => {
  it('runs exactly `concurrency` calls at once while that many lanes wait, and answers in item order', async () => {
    const items = Array.from({ length: 20 }, (_, n) => ({ lane: `m${n}`, n, ms: 5 + (n % 3) }));
    const { seen, fn } = tracked();
    const results = await runInLanes(items, (i) => i.lane, 8, fn);
    expect(seen.most).toBe(8);
    expect(results).toEqual(items.map((i) => i.n * 10));
    expect(seen.started.slice(0, 8)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('keeps the items of one lane one after another, in their order, while other lanes go on', async () => {
    const items = [
      { lane: 'a', n: 0, ms: 15 },
      { lane: 'b', n: 1, ms: 1 },
      { lane: 'a', n: 2, ms: 1 },
      { lane: 'c', n: 3, ms: 1 },
      { lane: 'a', n: 4, ms: 1 },
    ];
    const { seen, fn } = tracked();
    const results = await runInLanes(items, (i) => i.lane, 4, fn);
    expect(seen.overlapInLane).toBe(false);
    expect(seen.most).toBe(3);
    // b and c start while a's first item still runs; a's others follow it, in order.
    expect(seen.started).toEqual([0, 1, 3, 2, 4]);
    expect(results).toEqual([0, 10, 20, 30, 40]);
  });

  it('one at a time with a concurrency of 1, and nothing to do for no items', async () => {
    const items = Array.from({ length: 4 }, (_, n) => ({ lane: `m${n}`, n, ms: 1 }));
    const { seen, fn } = tracked();
    expect(await runInLanes(items, (i) => i.lane, 1, fn)).toEqual([0, 10, 20, 30]);
    expect(seen.most).toBe(1);
    expect(await runInLanes([], () => 'x', 8, fn)).toEqual([]);
  });
});
