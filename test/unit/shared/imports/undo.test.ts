import { describe, expect, it } from 'vitest';
import { undoRefusal } from '../../../../shared/imports/undo';

const END = Date.parse('2026-03-20T10:00:00Z');
const DAY = 86_400_000;
const job = (over: Partial<Parameters<typeof undoRefusal>[0]> = {}) => ({
  status: 'completed' as const,
  completedAt: new Date(END).toISOString(),
  ...over,
});

describe('undoRefusal', () => {
  // Any kind: a members job is undone too (its untouched members removed), no longer refused.
  it('a completed or failed job, within the window (its last instant included)', () => {
    expect(undoRefusal(job(), END, 7)).toBeNull();
    expect(undoRefusal(job({ status: 'failed' }), END + 7 * DAY, 7)).toBeNull();
  });
  it('refuses past the window, and a job in any other state', () => {
    expect(undoRefusal(job(), END + 7 * DAY + 1, 7)).toBe('The import job ended more than 7 days ago; it can no longer be undone');
    for (const status of ['awaiting_upload', 'previewed', 'applying', 'undone'] as const) {
      expect(undoRefusal(job({ status, completedAt: null }), END, 7)).toBe(`The import job is ${status}; only a completed or failed job is undone`);
    }
  });
  it('a job without an end (a failure recorded without one) is within the window', () => {
    expect(undoRefusal(job({ status: 'failed', completedAt: null }), END + 100 * DAY, 7)).toBeNull();
  });
});
