import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { withStoreDeadline } from '../../../../../shared/platform/data/client';
import { backoffMs, KeyedSerializer, mayRetry } from '../../../../../shared/platform/data/contention';
import { StaleRead, withOptimisticRetry } from '../../../../../shared/platform/data/concurrency';

const policy = { baseMs: 10, capMs: 400 };

describe('backoff after a lost race (full jitter)', () => {
  it('attempt n waits a uniform share of min(cap, base * 2^(n-1))', () => {
    const top = () => 1;
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => backoffMs(n, policy, top))).toEqual([10, 20, 40, 80, 160, 320, 400]);
    expect(backoffMs(3, policy, () => 0.5)).toBe(20);
    expect(backoffMs(1, policy, () => 0.25)).toBe(2.5);
    expect(backoffMs(2, policy, () => 0)).toBe(0);
  });

  it('stays at the cap however long the losses go on, and treats attempt 0 or less as the first', () => {
    expect(backoffMs(40, policy, () => 1)).toBe(400);
    expect(backoffMs(10_000, policy, () => 1)).toBe(400);
    expect(backoffMs(10_000, { baseMs: 1, capMs: Number.MAX_SAFE_INTEGER }, () => 1)).toBe(2 ** 30);
    expect(backoffMs(0, policy, () => 1)).toBe(10);
    expect(backoffMs(-3, policy, () => 1)).toBe(10);
  });

  it('draws from Math.random by default, always within the window', () => {
    for (let i = 0; i < 200; i++) {
      const wait = backoffMs(3, policy);
      expect(wait).toBeGreaterThanOrEqual(0);
      expect(wait).toBeLessThan(40);
    }
  });
});

/** The numbers in force (`config.dynamodb.contention`), as a retried unit meets them. */
describe('a unit that keeps losing races', () => {
  const lossyUnit = () => {
    const unit = {
      runs: 0,
      loss: new StaleRead('the item'),
      run: async (): Promise<never> => {
        unit.runs++;
        throw unit.loss;
      },
    };
    return unit;
  };
  // Every wait drawn at the bottom of its window (0 ms): the attempts, not the waits, are under test.
  beforeEach(() => void vi.spyOn(Math, 'random').mockReturnValue(0));
  afterEach(() => void vi.restoreAllMocks());

  it('runs 40 times, then its last loss is the answer', async () => {
    const unit = lossyUnit();
    await expect(withOptimisticRetry(unit.run)).rejects.toBe(unit.loss);
    expect(unit.runs).toBe(40);
  });

  it('inside a request, starts no attempt with 2 s or less of the deadline left', async () => {
    const inRequest = (msLeft: number, unit: ReturnType<typeof lossyUnit>) =>
      withStoreDeadline({ signal: new AbortController().signal, unsettledWrites: 0, deadlineAt: Date.now() + msLeft }, () => withOptimisticRetry(unit.run));
    const tight = lossyUnit();
    await expect(inRequest(1_990, tight)).rejects.toBe(tight.loss);
    expect(tight.runs).toBe(1);
    const roomy = lossyUnit();
    await expect(inRequest(60_000, roomy)).rejects.toBe(roomy.loss);
    expect(roomy.runs).toBe(40);
  });
});

describe('whether another attempt may start', () => {
  it('not once the attempts are used up', () => {
    expect(mayRetry(1, 2, undefined, 100)).toBe(true);
    expect(mayRetry(2, 2, undefined, 100)).toBe(false);
    expect(mayRetry(3, 2, undefined, 100)).toBe(false);
  });

  it('inside a request, only with more than the reserve of its deadline left', () => {
    expect(mayRetry(1, 40, 2001, 2000)).toBe(true);
    expect(mayRetry(1, 40, 2000, 2000)).toBe(false);
    expect(mayRetry(1, 40, -5, 2000)).toBe(false);
    expect(mayRetry(40, 40, 10_000, 2000)).toBe(false);
  });
});

/** A promise with its resolve function, to hold work open. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, opened };
}
const tick = () => new Promise((r) => setImmediate(r));

describe('per-key ordering inside one process', () => {
  it('runs the work of one key one at a time, in arrival order, and tells who waited', async () => {
    const s = new KeyedSerializer();
    const log: string[] = [];
    const first = gate();
    const a = s.run('m1', async (waited) => {
      log.push(`a start ${waited}`);
      await first.opened;
      log.push('a end');
      return 'a';
    });
    const b = s.run('m1', async (waited) => {
      log.push(`b start ${waited}`);
      return 'b';
    });
    const c = s.run('m1', async (waited) => {
      log.push(`c start ${waited}`);
      return 'c';
    });
    await tick();
    expect(log).toEqual(['a start false']);
    expect(s.activeKeys).toBe(1);
    first.open();
    expect(await Promise.all([a, b, c])).toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['a start false', 'a end', 'b start true', 'c start true']);
    expect(s.activeKeys).toBe(0);
  });

  it('a late caller waits for all the work ahead of it, not only the first', async () => {
    const s = new KeyedSerializer();
    const [ga, gb] = [gate(), gate()];
    const log: string[] = [];
    const a = s.run('m1', async () => {
      await ga.opened;
      log.push('a');
    });
    const b = s.run('m1', async () => {
      await gb.opened;
      log.push('b');
    });
    const c = s.run('m1', async () => void log.push('c'));
    ga.open();
    await a;
    await tick();
    // b is still running: its key is busy, and c (and anyone arriving now) waits for it.
    expect(log).toEqual(['a']);
    expect(s.activeKeys).toBe(1);
    const d = s.run('m1', async (waited) => void log.push(`d ${waited}`));
    await tick();
    expect(log).toEqual(['a']);
    gb.open();
    await Promise.all([b, c, d]);
    expect(log).toEqual(['a', 'b', 'c', 'd true']);
    expect(s.activeKeys).toBe(0);
  });

  it('runs different keys side by side', async () => {
    const s = new KeyedSerializer();
    const held = gate();
    const log: string[] = [];
    const a = s.run('m1', async () => {
      await held.opened;
      log.push('m1');
    });
    const b = s.run('m2', async (waited) => {
      log.push(`m2 ${waited}`);
    });
    await b;
    expect(log).toEqual(['m2 false']);
    expect(s.activeKeys).toBe(1);
    held.open();
    await a;
    expect(s.activeKeys).toBe(0);
  });

  it('a failure ends its turn like a success; the next work still runs', async () => {
    const s = new KeyedSerializer();
    const a = s.run('m1', async () => {
      throw new Error('boom');
    });
    const b = s.run('m1', async (waited) => (waited ? 'after' : 'alone'));
    await expect(a).rejects.toThrow('boom');
    expect(await b).toBe('after');
    expect(s.activeKeys).toBe(0);
    expect(await s.run('m1', async (waited) => waited)).toBe(false);
  });

  it('a caller whose deadline passes while it waits leaves the line without running, and overtakes nobody', async () => {
    const s = new KeyedSerializer();
    const held = gate();
    const log: string[] = [];
    const a = s.run('m1', async () => {
      await held.opened;
      log.push('a');
    });
    const controller = new AbortController();
    const b = s.run('m1', async () => void log.push('b'), controller.signal);
    const c = s.run('m1', async () => void log.push('c'));
    await tick();
    const reason = Object.assign(new Error('deadline'), { name: 'TimeoutError' });
    controller.abort(reason);
    await expect(b).rejects.toBe(reason);
    await tick();
    // c waits for a (still running), not for b (gone).
    expect(log).toEqual([]);
    held.open();
    await Promise.all([a, c]);
    expect(log).toEqual(['a', 'c']);
    expect(s.activeKeys).toBe(0);
  });

  it('a caller whose deadline has passed already is refused at once, even with nobody ahead', async () => {
    const s = new KeyedSerializer();
    const controller = new AbortController();
    controller.abort(new Error('late'));
    let ran = false;
    await expect(s.run('m1', async () => void (ran = true), controller.signal)).rejects.toThrow('late');
    expect(ran).toBe(false);
    expect(s.activeKeys).toBe(0);
  });

  it('a caller with a deadline that never fires runs in its turn, and stops listening to it then', async () => {
    const s = new KeyedSerializer();
    const held = gate();
    const a = s.run('m1', () => held.opened);
    const signal = new AbortController().signal;
    const added = vi.spyOn(signal, 'addEventListener');
    const removed = vi.spyOn(signal, 'removeEventListener');
    const b = s.run('m1', async (waited) => waited, signal);
    held.open();
    await a;
    expect(await b).toBe(true);
    expect(added).toHaveBeenCalledTimes(1);
    expect(removed.mock.calls).toEqual([[added.mock.calls[0]![0], added.mock.calls[0]![1]]]);
    expect(added.mock.calls[0]![0]).toBe('abort');
  });

  it('a caller with a deadline and nobody ahead runs at once', async () => {
    const s = new KeyedSerializer();
    expect(await s.run('m1', async (waited) => `ran ${waited}`, new AbortController().signal)).toBe('ran false');
    expect(s.activeKeys).toBe(0);
  });
});
