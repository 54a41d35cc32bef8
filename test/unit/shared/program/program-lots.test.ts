import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DAY_MS, localDate, startOfLocalDay, startOfNextMonth, startOfYear, isTimeZone } from '../../../../shared/program/calendar';
import {
  bySpendOrder,
  dueLots,
  effectiveExpiry,
  expiringSchedule,
  expiryAt,
  inactivityExpiry,
  lotExpiry,
  takeFromLots,
  warningsDue,
  type Lot,
} from '../../../../shared/program/lots';

const T0 = Date.parse('2026-01-15T10:00:00Z');
const lot = (lotId: string, remaining: number, earnedAt: number, expiresAt: number | null): Lot => ({ lotId, remaining, earnedAt, expiresAt });

describe('calendar in a time zone', () => {
  it('local dates and midnights follow the zone, across daylight saving', () => {
    // 23:30 UTC on 31 March is already 1 April in Berlin (UTC+2 after the switch on 29 March 2026).
    expect(localDate(Date.parse('2026-03-31T23:30:00Z'), 'Europe/Berlin')).toEqual({ year: 2026, month: 4, day: 1 });
    expect(localDate(Date.parse('2026-03-31T23:30:00Z'), 'UTC')).toEqual({ year: 2026, month: 3, day: 31 });
    expect(new Date(startOfLocalDay({ year: 2026, month: 4, day: 1 }, 'Europe/Berlin')).toISOString()).toBe('2026-03-31T22:00:00.000Z');
    expect(new Date(startOfLocalDay({ year: 2026, month: 3, day: 1 }, 'Europe/Berlin')).toISOString()).toBe('2026-02-28T23:00:00.000Z');
    expect(new Date(startOfLocalDay({ year: 2026, month: 3, day: 1 }, 'America/New_York')).toISOString()).toBe('2026-03-01T05:00:00.000Z');
    expect(new Date(startOfLocalDay({ year: 2026, month: 3, day: 29 }, 'UTC')).toISOString()).toBe('2026-03-29T00:00:00.000Z');
  });

  it('the next month and the year start at local midnight', () => {
    expect(new Date(startOfNextMonth(Date.parse('2026-12-10T12:00:00Z'), 'Europe/Berlin')).toISOString()).toBe('2026-12-31T23:00:00.000Z');
    expect(new Date(startOfNextMonth(Date.parse('2026-02-28T23:30:00Z'), 'Europe/Berlin')).toISOString()).toBe('2026-03-31T22:00:00.000Z');
    expect(new Date(startOfNextMonth(Date.parse('2026-02-28T23:30:00Z'), 'UTC')).toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect(new Date(startOfYear(Date.parse('2026-06-01T00:00:00Z'), 'Asia/Tokyo')).toISOString()).toBe('2025-12-31T15:00:00.000Z');
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });

  it('any instant lies in [start of its local day, next day) in every zone', () => {
    const zones = fc.constantFrom('UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Pacific/Chatham', 'Australia/Lord_Howe');
    fc.assert(
      fc.property(fc.integer({ min: Date.parse('2000-01-01'), max: Date.parse('2060-01-01') }), zones, (t, tz) => {
        const start = startOfLocalDay(localDate(t, tz), tz);
        expect(start).toBeLessThanOrEqual(t);
        expect(t - start).toBeLessThan(DAY_MS + 3_600_000);
        const next = startOfNextMonth(t, tz);
        expect(next).toBeGreaterThan(t);
        expect(localDate(next, tz).day).toBe(1);
        expect(localDate(next - 1, tz).month).toBe(localDate(t, tz).month);
      }),
      { numRuns: 300 },
    );
  });
});

describe('lot expiry by policy', () => {
  it('fixed_days is days after the earn; none and inactivity give the lot no date', () => {
    expect(lotExpiry({ policy: 'fixed_days', days: 30 }, T0, 'UTC')).toBe(T0 + 30 * DAY_MS);
    expect(lotExpiry({ policy: 'fixed_days', days: 1 }, T0, 'UTC')).toBe(T0 + DAY_MS);
    expect(lotExpiry({ policy: 'none' }, T0, 'UTC')).toBeNull();
    expect(lotExpiry({ policy: 'inactivity_days', days: 30 }, T0, 'UTC')).toBeNull();
  });

  it('end_of_month rounds days-after-the-earn up to the end of that local month', () => {
    // 15 Jan + 30 days = 14 Feb -> the end of February, Berlin time.
    expect(new Date(lotExpiry({ policy: 'end_of_month', days: 30 }, T0, 'Europe/Berlin')!).toISOString()).toBe('2026-02-28T23:00:00.000Z');
    expect(new Date(lotExpiry({ policy: 'end_of_month', days: 10 }, T0, 'UTC')!).toISOString()).toBe('2026-02-01T00:00:00.000Z');
    // Late on 31 Jan UTC is already February in Tokyo.
    expect(new Date(lotExpiry({ policy: 'end_of_month', days: 1 }, Date.parse('2026-01-30T20:00:00Z'), 'Asia/Tokyo')!).toISOString()).toBe(
      '2026-02-28T15:00:00.000Z',
    );
  });

  it('inactivity_days expires everything days after the last activity; other policies never', () => {
    expect(inactivityExpiry({ policy: 'inactivity_days', days: 90 }, T0)).toBe(T0 + 90 * DAY_MS);
    expect(inactivityExpiry({ policy: 'inactivity_days', days: 90 }, null)).toBeNull();
    expect(inactivityExpiry({ policy: 'fixed_days', days: 90 }, T0)).toBeNull();
    expect(effectiveExpiry(lot('a', 1, T0, T0 + 5), T0 + 3)).toBe(T0 + 3);
    expect(effectiveExpiry(lot('a', 1, T0, T0 + 5), T0 + 9)).toBe(T0 + 5);
    expect(effectiveExpiry(lot('a', 1, T0, T0 + 5), null)).toBe(T0 + 5);
    expect(effectiveExpiry(lot('a', 1, T0, null), T0 + 9)).toBe(T0 + 9);
    expect(effectiveExpiry(lot('a', 1, T0, null), null)).toBeNull();
  });
});

describe('spending from lots', () => {
  it('takes from the lot that expires first, undated lots last, then the oldest, then by id', () => {
    const lots = [lot('c', 50, T0, null), lot('b', 30, T0 + 2, T0 + 100), lot('a', 20, T0 + 1, T0 + 50)];
    expect(takeFromLots(lots, 60)).toEqual({
      taken: [
        { lotId: 'a', points: 20 },
        { lotId: 'b', points: 30 },
        { lotId: 'c', points: 10 },
      ],
      short: 0,
    });
    expect(takeFromLots(lots, 20)).toEqual({ taken: [{ lotId: 'a', points: 20 }], short: 0 });
    expect(takeFromLots(lots, 130)).toEqual({
      taken: [
        { lotId: 'a', points: 20 },
        { lotId: 'b', points: 30 },
        { lotId: 'c', points: 50 },
      ],
      short: 30,
    });
    expect(takeFromLots(lots, 0)).toEqual({ taken: [], short: 0 });
    expect(takeFromLots([lot('x', 0, T0, T0), lot('y', 5, T0, T0 + 1)], 3)).toEqual({ taken: [{ lotId: 'y', points: 3 }], short: 0 });
    expect([lot('b', 1, T0, 5), lot('a', 1, T0, 5)].sort(bySpendOrder).map((l) => l.lotId)).toEqual(['a', 'b']);
    expect([lot('b', 1, T0 + 1, 5), lot('a', 1, T0 + 2, 5)].sort(bySpendOrder).map((l) => l.lotId)).toEqual(['b', 'a']);
    expect(bySpendOrder(lot('a', 1, T0, 5), lot('a', 1, T0, 5))).toBe(0);
    // Both ways round: which of two lots a sort happens to compare first never decides their order.
    expect(bySpendOrder(lot('b', 1, T0, 5), lot('a', 1, T0, 5))).toBe(1);
    expect(bySpendOrder(lot('a', 1, T0, 5), lot('b', 1, T0, 5))).toBe(-1);
  });

  const lotsArb = fc
    .array(
      fc.record({
        remaining: fc.integer({ min: 0, max: 1000 }),
        earnedAt: fc.integer({ min: 0, max: 1000 }),
        expiresAt: fc.option(fc.integer({ min: 0, max: 2000 }), { nil: null }),
      }),
      { maxLength: 12 },
    )
    .map((ls) => ls.map((l, i) => ({ ...l, lotId: `l${String(i).padStart(2, '0')}` })));

  it('takes exactly what was asked (or everything), never from a later-expiring lot while an earlier one has points', () => {
    fc.assert(
      fc.property(lotsArb, fc.integer({ min: 0, max: 15_000 }), (lots, want) => {
        const { taken, short } = takeFromLots(lots, want);
        const total = lots.reduce((s, l) => s + l.remaining, 0);
        const got = taken.reduce((s, t) => s + t.points, 0);
        expect(got + short).toBe(want);
        expect(got).toBe(Math.min(want, total));
        const byId = new Map(lots.map((l) => [l.lotId, l]));
        for (const t of taken) expect(t.points).toBeLessThanOrEqual(byId.get(t.lotId)!.remaining);
        // Every lot before the last one touched is emptied.
        const order = [...lots].sort(bySpendOrder).filter((l) => l.remaining > 0);
        const last = taken.at(-1);
        if (last) {
          const idx = order.findIndex((l) => l.lotId === last.lotId);
          for (const l of order.slice(0, idx)) expect(taken.find((t) => t.lotId === l.lotId)?.points).toBe(l.remaining);
          for (const l of order.slice(idx + 1)) expect(taken.some((t) => t.lotId === l.lotId)).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('expiry takes the due lots, never more than the balance', () => {
    const lots = [lot('a', 20, T0, T0 + 10), lot('b', 30, T0, T0 + 20), lot('c', 5, T0, null)];
    expect(dueLots(lots, T0 + 9, null)).toEqual([]);
    expect(dueLots(lots, T0 + 10, null).map((l) => l.lotId)).toEqual(['a']);
    expect(expiryAt(lots, T0 + 20, null, 100)).toEqual({
      points: 50,
      lots: [
        { lotId: 'a', points: 20 },
        { lotId: 'b', points: 30 },
      ],
    });
    expect(expiryAt(lots, T0 + 20, null, 35)).toEqual({
      points: 35,
      lots: [
        { lotId: 'a', points: 20 },
        { lotId: 'b', points: 30 },
      ],
    });
    expect(expiryAt(lots, T0 + 20, null, -5).points).toBe(0);
    expect(expiryAt(lots, T0 + 5, T0 + 5, 100).points).toBe(55);
    expect(dueLots([lot('z', 0, T0, T0)], T0 + 1, null)).toEqual([]);
    fc.assert(
      fc.property(lotsArb, fc.integer({ min: 0, max: 2000 }), fc.integer({ min: -100, max: 20_000 }), (lots, now, balance) => {
        const { points } = expiryAt(lots, now, null, balance);
        expect(points).toBeGreaterThanOrEqual(0);
        expect(balance - points).toBeGreaterThanOrEqual(Math.min(0, balance));
      }),
      { numRuns: 200 },
    );
  });

  it('what a member sees coming: points per date, next dates first', () => {
    const lots = [lot('a', 20, T0, T0 + 20), lot('b', 30, T0, T0 + 10), lot('c', 5, T0, T0 + 20), lot('d', 7, T0, null), lot('e', 0, T0, T0 + 1)];
    expect(expiringSchedule(lots, null)).toEqual([
      { points: 30, expiresAt: T0 + 10 },
      { points: 25, expiresAt: T0 + 20 },
    ]);
    expect(expiringSchedule(lots, null, 1)).toEqual([{ points: 30, expiresAt: T0 + 10 }]);
    expect(expiringSchedule(lots, T0 + 15)).toEqual([
      { points: 30, expiresAt: T0 + 10 },
      { points: 32, expiresAt: T0 + 15 },
    ]);
  });

  it('warnings fall due once each, days before the expiry, never after it', () => {
    const exp = T0 + 40 * DAY_MS;
    expect(warningsDue(exp, [30, 7], T0, T0 + 10 * DAY_MS)).toEqual([30]);
    expect(warningsDue(exp, [30, 7], T0 + 10 * DAY_MS, T0 + 33 * DAY_MS)).toEqual([7]);
    expect(warningsDue(exp, [30, 7], T0, T0 + 33 * DAY_MS)).toEqual([30, 7]);
    expect(warningsDue(exp, [30, 7], T0 + 10 * DAY_MS - 1, T0 + 10 * DAY_MS)).toEqual([30]);
    expect(warningsDue(exp, [30, 7], T0 + 10 * DAY_MS, T0 + 10 * DAY_MS)).toEqual([]);
    expect(warningsDue(exp, [30, 7], T0, exp)).toEqual([]);
  });
});

describe('spending order and expiry runs, at their edges', () => {
  it('lots expiring together go oldest-earned first, whatever order they are given in', () => {
    const newer = lot('a', 5, T0 + DAY_MS, T0 + 30 * DAY_MS);
    const older = lot('b', 5, T0, T0 + 30 * DAY_MS);
    expect([newer, older].sort(bySpendOrder).map((l) => l.lotId)).toEqual(['b', 'a']);
    expect([older, newer].sort(bySpendOrder).map((l) => l.lotId)).toEqual(['b', 'a']);
    expect(takeFromLots([newer, older], 7).taken).toEqual([
      { lotId: 'b', points: 5 },
      { lotId: 'a', points: 2 },
    ]);
  });

  it('an expiry run lists the lots it takes in spending order', () => {
    const late = lot('late', 3, T0, T0 + 2 * DAY_MS);
    const early = lot('early', 4, T0, T0 + DAY_MS);
    expect(expiryAt([late, early], T0 + 3 * DAY_MS, null, 100)).toEqual({
      points: 7,
      lots: [
        { lotId: 'early', points: 4 },
        { lotId: 'late', points: 3 },
      ],
    });
  });
});
