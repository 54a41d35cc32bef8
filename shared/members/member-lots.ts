/**
 * A member's lots and pending points through every points change: pure. The ledger calls it in the
 * transaction of each change; the due-work run calls it for what fell due. Times are ms since the
 * epoch, read from the workspace's program clock.
 */
import type { ExpiredPointsRecord, MemberLotsRecord, PendingPointsRecord, PointsLotRecord } from './entities';
import {
  type PointsRules,
  DAY_MS,
  bySpendOrder,
  effectiveExpiry,
  expiringSchedule,
  expiryAt,
  inactivityExpiry,
  lotExpiry,
  takeFromLots,
  type Lot,
} from '../program';

export const NO_LOTS: MemberLotsRecord = { lots: [], pending: [], lastActivityAt: null, warnedThrough: 0 };

/** Beyond this many lots the two that expire last merge (into the later date: the member loses nothing early). */
export const MAX_LOTS = 500;

const asLot = (l: PointsLotRecord): Lot => ({ lotId: l.id, remaining: l.points, earnedAt: l.earnedAt, expiresAt: l.expiresAt });

export const inactivityAt = (state: MemberLotsRecord, rules: PointsRules): number | null => inactivityExpiry(rules.expiry, state.lastActivityAt);

/**
 * A new lot of `points` earned at `at` (by `orderId`, if an order earned it), its expiry under the
 * rules of now. `activity: false` (a campaign's reward) leaves the member's last activity where it
 * was: a win-back reward must not start a new spell of inactivity by itself.
 */
export function credit(
  state: MemberLotsRecord,
  lot: { id: string; points: number; orderId: string | null },
  at: number,
  rules: PointsRules,
  timeZone: string,
  activity = true,
): MemberLotsRecord {
  if (lot.points <= 0) return state;
  const added: PointsLotRecord = { ...lot, earnedAt: at, expiresAt: lotExpiry(rules.expiry, at, timeZone) };
  return { ...state, lots: capped([...state.lots, added]), lastActivityAt: activity ? at : state.lastActivityAt };
}

function capped(lots: PointsLotRecord[]): PointsLotRecord[] {
  if (lots.length <= MAX_LOTS) return lots;
  const order = [...lots].sort((a, b) => bySpendOrder(asLot(a), asLot(b)));
  const [later, last] = [order.at(-2)!, order.at(-1)!];
  const merged = { ...last, points: last.points + later.points, orderId: null };
  return lots.filter((l) => l !== later && l !== last).concat(merged);
}

/**
 * Takes `points` from the lots: the taken-back points' own lots first (an order's, when its refund
 * takes them back; the lot an entry opened, when that entry is reversed: `lotId`), then in spending
 * order (what expires first). `spend`: a member's spend, which counts as activity.
 */
export function debit(
  state: MemberLotsRecord,
  points: number,
  at: number,
  opts: { orderId?: string | null; lotId?: string | null; spend: boolean },
): MemberLotsRecord {
  if (points <= 0) return state;
  const owns = (l: PointsLotRecord) => (opts.orderId ? l.orderId === opts.orderId : false) || (opts.lotId ? l.id === opts.lotId : false);
  const own = state.lots.filter(owns);
  const first = takeFromLots(own.map(asLot), points);
  const rest = takeFromLots(state.lots.filter((l) => !own.includes(l)).map(asLot), first.short);
  const taken = new Map([...first.taken, ...rest.taken].map((t) => [t.lotId, t.points]));
  const lots = state.lots.map((l) => ({ ...l, points: l.points - (taken.get(l.id) ?? 0) })).filter((l) => l.points > 0);
  return { ...state, lots, lastActivityAt: opts.spend ? at : state.lastActivityAt };
}

/**
 * An order's points wait `pendingDays` from `at` (added to what the order already has waiting).
 * `announced`: their campaign reward was announced before (a share given back), so its activation is not.
 */
export function addPending(state: MemberLotsRecord, orderId: string, points: number, at: number, rules: PointsRules, announced = false): MemberLotsRecord {
  const existing = state.pending.find((p) => p.orderId === orderId);
  const pending = existing
    ? state.pending.map((p) => (p === existing ? { ...p, points: p.points + points } : p))
    : [...state.pending, { orderId, points, activatesAt: at + rules.pendingDays * DAY_MS, ...(announced ? { announced: true as const } : {}) }];
  return { ...state, pending };
}

/** A refund or cancellation during the wait: up to `points` of the order's pending points are cancelled. */
export function cancelPending(state: MemberLotsRecord, orderId: string, points: number): { state: MemberLotsRecord; cancelled: number } {
  const item = state.pending.find((p) => p.orderId === orderId);
  if (!item || points <= 0) return { state, cancelled: 0 };
  const cancelled = Math.min(item.points, points);
  const pending = state.pending.map((p) => (p === item ? { ...p, points: p.points - cancelled } : p)).filter((p) => p.points > 0);
  return { state: { ...state, pending }, cancelled };
}

/** The moments a lot's warnings fall at: `warnDays` before its expiry, after its earn, before the expiry itself. */
function warningMoments(lot: PointsLotRecord, expiresAt: number, warnDays: readonly number[]): number[] {
  return warnDays.map((d) => expiresAt - d * DAY_MS).filter((m) => m > lot.earnedAt && m < expiresAt);
}

/** The next moment something falls due for this member (activation, warning, expiry); null: nothing ever. */
export function nextDueAt(state: MemberLotsRecord, rules: PointsRules): number | null {
  const inactive = inactivityAt(state, rules);
  const moments = state.pending.map((p) => p.activatesAt);
  for (const lot of state.lots) {
    const at = effectiveExpiry(asLot(lot), inactive);
    if (at === null) continue;
    moments.push(at, ...warningMoments(lot, at, rules.warnDays).filter((m) => m > state.warnedThrough));
  }
  return moments.length ? Math.min(...moments) : null;
}

/** The pending points that become spendable at `now`, and what is left waiting. */
export function activationsAt(state: MemberLotsRecord, now: number): { due: PendingPointsRecord[]; rest: PendingPointsRecord[] } {
  return { due: state.pending.filter((p) => p.activatesAt <= now), rest: state.pending.filter((p) => p.activatesAt > now) };
}

/** Whether a warning fell due in (warnedThrough, now] for points that have not expired by `now`. */
export function warningDue(state: MemberLotsRecord, rules: PointsRules, now: number): boolean {
  const inactive = inactivityAt(state, rules);
  return state.lots.some((lot) => {
    const at = effectiveExpiry(asLot(lot), inactive);
    return at !== null && now < at && warningMoments(lot, at, rules.warnDays).some((m) => m > state.warnedThrough && m <= now);
  });
}

/** At most this many orders' expired points are remembered; beyond it the oldest are forgotten. */
export const MAX_EXPIRED = 500;

/**
 * Expiry at `now`: the lots whose date has come leave; the balance loses their points, never more
 * than it holds (a balance a reversal took below its lots never goes negative through expiry).
 */
export function expire(state: MemberLotsRecord, rules: PointsRules, now: number, balance: number): { state: MemberLotsRecord; points: number } {
  const { state: next, points } = expireLots(state, now, inactivityAt(state, rules), balance);
  return { state: next, points };
}

/**
 * What a points change at `now` finds lapsed: the lots past their date that the due work has not
 * expired yet, expired now (`at`: the last of their dates; null: nothing lapsed). An inactivity
 * date counts only before every due activation: an activation is activity that moves it, and only
 * the due work, running each moment in turn, knows where it then lands.
 */
export function lapsed(
  state: MemberLotsRecord,
  rules: PointsRules,
  now: number,
  balance: number,
): { state: MemberLotsRecord; points: number; at: number | null } {
  const inactive = inactivityAt(state, rules);
  const firstActivation = Math.min(...state.pending.map((p) => p.activatesAt));
  return expireLots(state, now, inactive !== null && inactive < firstActivation ? inactive : null, balance);
}

function expireLots(state: MemberLotsRecord, now: number, inactive: number | null, balance: number) {
  const { points, lots } = expiryAt(state.lots.map(asLot), now, inactive, balance);
  if (lots.length === 0) return { state, points: 0, at: null };
  const gone = new Set(lots.map((l) => l.lotId));
  const due = state.lots.filter((l) => gone.has(l.id));
  const at = Math.max(...due.map((l) => effectiveExpiry(asLot(l), inactive)!));
  // What each lot lost, in spending order: a balance below its lots loses less than they held.
  const orderOf = new Map(due.map((l) => [l.id, l.orderId]));
  const lost = takeFromLots(due.map(asLot), points).taken.flatMap((t) => {
    const orderId = orderOf.get(t.lotId);
    return orderId ? [{ orderId, points: t.points }] : [];
  });
  return { state: { ...state, lots: state.lots.filter((l) => !gone.has(l.id)), ...remembered(state.expired, lost) }, points, at };
}

/** The expired points added per order (an order again moves to the end), the oldest orders forgotten beyond MAX_EXPIRED. */
function remembered(expired: readonly ExpiredPointsRecord[] | undefined, lost: readonly ExpiredPointsRecord[]): { expired?: ExpiredPointsRecord[] } {
  if (lost.length === 0) return {};
  const byOrder = new Map((expired ?? []).map((e) => [e.orderId, e.points]));
  for (const l of lost) {
    const before = byOrder.get(l.orderId) ?? 0;
    byOrder.delete(l.orderId);
    byOrder.set(l.orderId, before + l.points);
  }
  return { expired: [...byOrder].slice(-MAX_EXPIRED).map(([orderId, points]) => ({ orderId, points })) };
}

/**
 * A reversal of an order: up to `points` of the order's expired points are taken back without
 * touching the balance (they left it when they expired); what is left of the reversal is the rest.
 */
export function absorbExpired(state: MemberLotsRecord, orderId: string, points: number): { state: MemberLotsRecord; absorbed: number } {
  const item = state.expired?.find((e) => e.orderId === orderId);
  if (!item || points <= 0) return { state, absorbed: 0 };
  const absorbed = Math.min(item.points, points);
  const expired = state.expired!.map((e) => (e === item ? { ...e, points: e.points - absorbed } : e)).filter((e) => e.points > 0);
  return { state: { ...state, expired }, absorbed };
}

/** Points by expiry date, next dates first (what `GET .../points` answers as `expiring`). */
export function expiring(state: MemberLotsRecord, rules: PointsRules, limit = 10): { points: number; expiresAt: string }[] {
  return expiringSchedule(state.lots.map(asLot), inactivityAt(state, rules), limit).map((e) => ({
    points: e.points,
    expiresAt: new Date(e.expiresAt).toISOString(),
  }));
}
