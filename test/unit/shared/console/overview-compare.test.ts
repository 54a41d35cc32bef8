import { describe, expect, it } from 'vitest';
import { changeLabel, periodDays } from '../../../../shared/console/screens/overview/compare';

describe('changeLabel', () => {
  it('gives the change in whole per cent against the period before, with its length', () => {
    expect(changeLabel(112, 100, 30)).toBe('+12 % vs previous 30 days');
    expect(changeLabel(88, 100, 30)).toBe('−12 % vs previous 30 days');
    expect(changeLabel(1005, 1000, 7)).toBe('+1 % vs previous 7 days');
    expect(changeLabel(1004, 1000, 7)).toBe('+0 % vs previous 7 days');
    expect(changeLabel(3, 1, 1)).toBe('+200 % vs previous day');
    expect(changeLabel(25_000, 1000, 1200)).toBe('+2,400 % vs previous 1,200 days');
  });

  it('says no change, and the change in points when there was nothing before', () => {
    expect(changeLabel(40, 40, 30)).toBe('no change vs previous 30 days');
    expect(changeLabel(0, 0, 2)).toBe('no change vs previous 2 days');
    expect(changeLabel(1500, 0, 30)).toBe('+1,500 vs previous 30 days (none before)');
    expect(changeLabel(-20, 0, 30)).toBe('−20 vs previous 30 days (none before)');
  });

  it('measures a change against a negative figure by its size', () => {
    expect(changeLabel(-50, -100, 30)).toBe('+50 % vs previous 30 days');
    expect(changeLabel(-150, -100, 30)).toBe('−50 % vs previous 30 days');
  });
});

describe('periodDays', () => {
  it('counts both ends', () => {
    expect(periodDays('2026-03-01', '2026-03-31')).toBe(31);
    expect(periodDays('2026-03-01', '2026-03-01')).toBe(1);
    expect(periodDays('2025-12-31', '2026-01-01')).toBe(2);
  });
});
