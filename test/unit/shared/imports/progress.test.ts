import { describe, expect, it } from 'vitest';
import { estimatedCompletionAt } from '../../../../shared/imports/progress';

const now = new Date('2026-12-08T10:00:00.000Z');
const job = { status: 'applying', startedAt: '2026-12-08T09:59:00.000Z', rows: 1000, processed: 250 };

describe('estimatedCompletionAt', () => {
  it('extends the pace so far over the rows left', () => {
    // 250 rows in 60 s: 750 left take 180 s.
    expect(estimatedCompletionAt(job, now)).toBe('2026-12-08T10:03:00.000Z');
    expect(estimatedCompletionAt({ ...job, processed: 500 }, now)).toBe('2026-12-08T10:01:00.000Z');
  });

  it('rounds up to the next whole second', () => {
    // 300 rows in 60 s: 700 left take 140 s exactly; 333 rows: 667 left take 120.18 s, shown as 121.
    expect(estimatedCompletionAt({ ...job, processed: 300 }, now)).toBe('2026-12-08T10:02:20.000Z');
    expect(estimatedCompletionAt({ ...job, processed: 333 }, now)).toBe('2026-12-08T10:02:01.000Z');
  });

  it('is now once every row is counted, and never before now', () => {
    expect(estimatedCompletionAt({ ...job, processed: 1000 }, now)).toBe(now.toISOString());
    expect(estimatedCompletionAt({ ...job, processed: 1200 }, now)).toBe(now.toISOString());
    // A start after now (clocks apart): no time has passed, nothing is added.
    expect(estimatedCompletionAt({ ...job, startedAt: '2026-12-08T10:00:30.000Z' }, now)).toBe(now.toISOString());
  });

  it('cannot tell before a row is counted, without a row total, or when not applying', () => {
    expect(estimatedCompletionAt({ ...job, processed: 0 }, now)).toBeNull();
    expect(estimatedCompletionAt({ ...job, processed: -1 }, now)).toBeNull();
    expect(estimatedCompletionAt({ ...job, rows: null }, now)).toBeNull();
    expect(estimatedCompletionAt({ ...job, startedAt: null }, now)).toBeNull();
    for (const status of ['previewed', 'completed', 'failed', 'undone']) expect(estimatedCompletionAt({ ...job, status }, now)).toBeNull();
    // One row counted is enough: 999 left at a minute each.
    expect(estimatedCompletionAt({ ...job, processed: 1 }, now)).toBe('2026-12-09T02:39:00.000Z');
  });
});
