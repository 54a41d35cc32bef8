/**
 * The points aggregates, pure: how a change's ledger entries and its lots move a workspace's day
 * counters. Every entry lands in exactly one counter of the day it is dated, so the counters of a
 * period add up to the ledger of that period and their running sum to the outstanding points; the
 * lots before and after the change move pending points and the liability by expiry month.
 */
import { localDate } from '../program';

/** What each day counts, in points (docs/program.md, "Finance"). */
export const POINT_COUNTERS = ['issuedBase', 'issuedCampaign', 'issuedManual', 'redeemed', 'reversed', 'expired', 'deducted', 'pending', 'orders'] as const;
export type PointCounter = (typeof POINT_COUNTERS)[number];

/**
 * Counters of one day: named counters, `x<yyyy-mm>` for points outstanding that expire in that local
 * month, the members' counters (`members-day.ts`): `t.<tier>` and `a<gap>`, and per campaign the
 * points its rewards credited (`c.<campaignId>`) and how many rewards (`n.<campaignId>`).
 */
export type DayCounters = Partial<Record<PointCounter, number>> & Record<`x${string}` | `t.${string}` | `a${string}` | `c.${string}` | `n.${string}`, number>;

/** What the aggregates read of a ledger entry. */
export interface CountedEntry {
  type: string;
  amount: number;
  source: { type: string; campaignId?: string };
  createdAt: string;
}

/** What the aggregates read of a member's lots. */
export interface CountedLots {
  lots: readonly { points: number; expiresAt: number | null }[];
  pending: readonly { points: number }[];
}

const ORDER_SOURCES = new Set(['order', 'reconciliation', 'refund']);

/**
 * The counter an entry moves. A reward's redemption is redeemed, and its void gives back to
 * redeemed what the redemption took (`countedPoints`). Credits: an order's points (at once or when
 * they activate) are base, a campaign's reward campaign, anything else manual. Debits: a coupon
 * bought with points is a redemption, a debit of an order (a refund, a cancellation, a downward
 * correction) a reversal, an expiry expired, anything else (a support deduction or correction)
 * deducted. A type added later falls to manual or deducted by its sign, so every point stays counted.
 */
export function counterOf(entry: CountedEntry): PointCounter {
  if (entry.type === 'expire') return 'expired';
  if (entry.type === 'redemption' || entry.type === 'redemption_void') return 'redeemed';
  if (entry.amount > 0) {
    if (entry.type === 'campaign') return 'issuedCampaign';
    return entry.type === 'earn' && ORDER_SOURCES.has(entry.source.type) ? 'issuedBase' : 'issuedManual';
  }
  if (entry.source.type === 'coupon') return 'redeemed';
  if (entry.type === 'refund_reversal' || ORDER_SOURCES.has(entry.source.type)) return 'reversed';
  return 'deducted';
}

/**
 * The points an entry adds to its counter: debits count as positive points taken off, and a void
 * of a redemption takes its points off redeemed again (a counter of credits or debits never holds
 * the other sign's points), so `outstandingMove` still sums to the ledger.
 */
export const countedPoints = (entry: Pick<CountedEntry, 'type' | 'amount'>): number =>
  entry.type === 'redemption_void' ? -entry.amount : Math.abs(entry.amount);

/** The local calendar day of an instant, `yyyy-mm-dd`. */
export function localDay(instant: number, timeZone: string): string {
  const d = localDate(instant, timeZone);
  return `${d.year}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;
}

/** The local month a lot expires in: the month of its last valid moment (an end-of-month expiry is the next month's first instant). */
export const expiryMonth = (expiresAt: number, timeZone: string): string => localDay(expiresAt - 1, timeZone).slice(0, 7);

/** Points of the lots per expiry month (`x<yyyy-mm>`) and the pending points. Lots without a date are not counted here. */
export function lotsProfile(state: CountedLots | undefined, timeZone: string): DayCounters {
  const out: DayCounters = {};
  for (const lot of state?.lots ?? []) {
    if (lot.expiresAt === null || lot.points === 0) continue;
    const key = `x${expiryMonth(lot.expiresAt, timeZone)}` as const;
    out[key] = (out[key] ?? 0) + lot.points;
  }
  const pending = (state?.pending ?? []).reduce((n, p) => n + p.points, 0);
  if (pending !== 0) out.pending = pending;
  return out;
}

/** `a + sign * b`, counter by counter, zeros dropped. */
export function addCounters(a: DayCounters, b: DayCounters, sign = 1): DayCounters {
  const out: Record<string, number> = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = (out[k] ?? 0) + sign * (v ?? 0);
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== 0)) as DayCounters;
}

/** One change as the aggregates see it. */
export interface CountedChange {
  /** The lapsed expiry the change books first (dated when the points lapsed), or null. */
  lapsed: CountedEntry | null;
  /** The change's own entries (its own, then its grants), all dated at the change. */
  entries: readonly (CountedEntry | null | undefined)[];
  /** The lots as read, as left once what lapsed expired, and as written. */
  lots: { read: CountedLots | undefined; settled: CountedLots | undefined; written: CountedLots | undefined };
  orders: number;
  /** Further counters of the change's own day (a tier moved, a member's first activity of the day). */
  also?: DayCounters;
  at: number;
  timeZone: string;
}

/**
 * The counters a change moves, per local day: the lapsed expiry and the lots it took on the day the
 * points lapsed, the rest on the day of the change. Nothing moved: an empty map.
 */
export function dayMoves(change: CountedChange): Map<string, DayCounters> {
  const { timeZone } = change;
  const moves = new Map<string, DayCounters>();
  const book = (day: string, counters: DayCounters) => {
    const next = addCounters(moves.get(day) ?? {}, counters);
    if (Object.keys(next).length > 0) moves.set(day, next);
    else moves.delete(day);
  };
  const profile = (s: CountedLots | undefined) => lotsProfile(s, timeZone);
  if (change.lapsed) {
    const day = localDay(Date.parse(change.lapsed.createdAt), timeZone);
    book(day, { [counterOf(change.lapsed)]: countedPoints(change.lapsed) });
    book(day, addCounters(profile(change.lots.settled), profile(change.lots.read), -1));
  }
  const day = localDay(change.at, timeZone);
  const own: DayCounters = {};
  for (const e of change.entries) {
    if (!e || e.amount === 0) continue;
    const c = counterOf(e);
    own[c] = (own[c] ?? 0) + countedPoints(e);
    if (c === 'issuedCampaign' && e.source.campaignId) {
      own[`c.${e.source.campaignId}`] = (own[`c.${e.source.campaignId}`] ?? 0) + e.amount;
      own[`n.${e.source.campaignId}`] = (own[`n.${e.source.campaignId}`] ?? 0) + 1;
    }
  }
  if (change.orders > 0) own.orders = change.orders;
  book(day, addCounters(own, change.also ?? {}));
  book(day, addCounters(profile(change.lots.written), profile(change.lapsed ? change.lots.settled : change.lots.read), -1));
  return moves;
}

/** Points a day's counters add to the outstanding balance (credits less every debit). */
export const outstandingMove = (c: DayCounters): number =>
  (c.issuedBase ?? 0) + (c.issuedCampaign ?? 0) + (c.issuedManual ?? 0) - (c.redeemed ?? 0) - (c.reversed ?? 0) - (c.expired ?? 0) - (c.deducted ?? 0);

/** A ledger entry as the backfill reads it: when it was written is in its id (`ple_<time><random>`, ids sort by creation time). */
export interface BackfilledEntry extends CountedEntry {
  id: string;
}

/** A member as the backfill reads it: its entries through its revision, oldest first, its lots, and its last change's local day. */
export interface BackfilledMember {
  entries: readonly BackfilledEntry[];
  lots: { lots: CountedLots['lots']; pending: readonly { points: number; orderId: string }[] } | undefined;
  lastDay: string;
}

/**
 * What a member's ledger adds to counters that started late (the backfill): each entry written
 * before the cut-over on the day it is dated. And, when the member's points did not move since
 * (every entry written before the cut-over, every pending order made before it), its lots as they
 * stand (pending and dated points) on the day of its last change: what counters kept from the start
 * would hold for it. A member whose points moved since has had its lots counted as differences from
 * then on: its points from before stay undated. `before` is the cut-over's id time prefix
 * (`idTimePrefix`, without the type): an id made before the cut-over sorts before it.
 */
export function backfillMoves(member: BackfilledMember, before: string, timeZone: string): Map<string, DayCounters> {
  const moves = new Map<string, DayCounters>();
  const book = (day: string, counters: DayCounters) => moves.set(day, addCounters(moves.get(day) ?? {}, counters));
  const made = (id: string) => id.slice(id.indexOf('_') + 1) < before;
  const old = member.entries.filter((e) => made(e.id));
  for (const e of old) if (e.amount !== 0) book(localDay(Date.parse(e.createdAt), timeZone), { [counterOf(e)]: countedPoints(e) });
  const unmoved = old.length === member.entries.length && (member.lots?.pending ?? []).every((p) => made(p.orderId));
  if (unmoved) book(member.lastDay, lotsProfile(member.lots, timeZone));
  for (const [day, counters] of moves) if (Object.keys(counters).length === 0) moves.delete(day);
  return moves;
}
