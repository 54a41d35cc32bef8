import { describe, expect, it } from 'vitest';
import { progressText, rowsHandled, timeLeft } from '../../../../shared/console/screens/imports/progress';

/** The import progress bar's words: rows handled of the file's rows, and the time left at the job's pace. */

const now = Date.parse('2026-03-20T09:05:00.000Z');
const at = (seconds: number) => new Date(now + seconds * 1000).toISOString();
const p = (over: Partial<Parameters<typeof progressText>[0]> = {}) => ({ rows: 1204, done: 790, skipped: 8, failed: 2, estimatedCompletionAt: null, ...over });

describe('import progress text', () => {
  it('counts applied, skipped and failed rows as handled', () => {
    expect(rowsHandled(p())).toBe(800);
  });

  it('says rows of rows, with thousands separated, and the time left', () => {
    expect(progressText(p({ estimatedCompletionAt: at(20) }), now)).toBe('800 of 1,204 rows, about 20 s left');
    expect(progressText(p(), now)).toBe('800 of 1,204 rows');
    expect(progressText(p({ rows: null }), now)).toBe('800 rows');
  });

  it('gives seconds under 90 s, rounded minutes from there, nothing once due', () => {
    expect(timeLeft(at(89), now)).toBe('about 89 s left');
    expect(timeLeft(at(89.2), now)).toBe('about 2 min left');
    expect(timeLeft(at(90), now)).toBe('about 2 min left');
    expect(timeLeft(at(149), now)).toBe('about 2 min left');
    expect(timeLeft(at(151), now)).toBe('about 3 min left');
    expect(timeLeft(at(0.4), now)).toBe('about 1 s left');
    expect(timeLeft(at(0), now)).toBeUndefined();
    expect(timeLeft(at(-5), now)).toBeUndefined();
    expect(timeLeft(null, now)).toBeUndefined();
  });
});
