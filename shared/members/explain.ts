/**
 * A member's points as they stood at a past moment, replayed from the ledger: pure. The ledger is
 * the record of every balance change, so the balance, lifetime points, the lots and the tier at
 * `at` follow from the entries written up to it, replayed in revision order through the same lot
 * functions the ledger uses (each credit a lot, each debit taken from the lots that expire first,
 * an order's refund from the order's own lots first, the lots due by each entry's date gone before it).
 * Pending points never touch the ledger until they activate, so what waited at `at` is what was
 * activated later or still waits, counted from the moment it started waiting.
 */
import type { LedgerEntryRecord, LedgerType, MemberLotsRecord, PendingPointsRecord } from './entities';
import { type ProgramRules, DAY_MS, effectiveExpiry, inactivityExpiry, evaluateTier, type TierDays, windowStart, type TierState } from '../program';
import { expire, NO_LOTS } from './member-lots';
import { isSpend, lotsAfter } from './points-lots';

/** How the due work describes an order's pending points becoming spendable (its ledger entry's reason). */
export const ACTIVATION_REASON = 'Pending points of an order activated';

/** Balance changes that leave lifetime points alone: spending (a reward's points given back included) and expiry. Every other type earns or takes back earned points. */
const NOT_LIFETIME: ReadonlySet<LedgerType> = new Set<LedgerType>(['deduct', 'expire', 'redemption', 'redemption_void']);

export const isActivation = (e: Pick<LedgerEntryRecord, 'type' | 'reason' | 'source'>): boolean =>
  e.type === 'earn' && e.source.type === 'order' && e.reason === ACTIVATION_REASON;

/**
 * What an entry adds to lifetime points (and to a points tier metric). A correction that reverses
 * a spend (`spends`: the ids of the spends replayed before it) gives the points back and leaves
 * lifetime, which the spend never moved. An entry kept outside the tier (a goodwill earn, its
 * reversal) moved nothing.
 */
export const lifetimeMove = (
  e: Pick<LedgerEntryRecord, 'type' | 'amount' | 'outsideTier'> & { source?: Pick<LedgerEntryRecord['source'], 'reversedEntryId'> },
  spends: ReadonlySet<string> = new Set(),
): number => (e.outsideTier || NOT_LIFETIME.has(e.type) || spends.has(e.source?.reversedEntryId ?? '') ? 0 : e.amount);

/**
 * What an entry adds to the completed orders a tier counts: an order's earn (at intake, or when its
 * waiting points activate). Reversals leave the count alone (a cancellation is seen only through
 * its points).
 */
export const orderMove = (e: Pick<LedgerEntryRecord, 'type' | 'reason' | 'source'>): number => (e.type === 'earn' && e.source.type === 'order' ? 1 : 0);

export interface ExplainedLot {
  entryId: string;
  points: number;
  earnedAt: number;
  /** When the lot expires, the member's inactivity date included; null: never. */
  expiresAt: number | null;
  orderId: string | null;
}

export interface Explained {
  balance: number;
  pending: number;
  lifetime: number;
  lots: ExplainedLot[];
  waiting: PendingPointsRecord[];
  tier: { key: string; reachedAt: number; retainedUntil: number; value: number; windowFrom: number | null };
  /** Entries replayed (written at or before `at`). */
  replayed: number;
}

/** Most tier reviews replayed between two entries (a review moves the tier one step at most). */
const MAX_REVIEWS = 100;

interface TierReplay {
  state: TierState;
  days: TierDays;
  lifetime: number;
  orders: number;
  value: number;
  reviewAt: number | null;
}

function tierStep(t: TierReplay, rules: ProgramRules, at: number, points: number, orders: number): TierReplay {
  const lifetime = t.lifetime + points;
  const count = t.orders + orders;
  const lifetimeValue = rules.tiers.metric === 'order_count' ? count : lifetime;
  const e = evaluateTier({ state: t.state, days: t.days, lifetimeValue, points, orders }, rules.tiers, at, rules.timeZone);
  return { state: e.decision, days: e.days, lifetime, orders: count, value: e.value, reviewAt: e.reviewAt };
}

/** The daily review's evaluations that fell due before `until` (each at its review time), as the due work runs them. */
function reviewsUntil(t: TierReplay, rules: ProgramRules, until: number): TierReplay {
  let next = t;
  for (let i = 0; i < MAX_REVIEWS && next.reviewAt !== null && next.reviewAt <= until; i++) {
    const at = next.reviewAt;
    next = tierStep(next, rules, at, 0, 0);
    if (next.reviewAt === at) break;
  }
  return next;
}

/**
 * The lots after one entry at `at`: first the lots due by then leave (the due work or the change
 * itself expired them; an expiry that took nothing from a balance already below its lots wrote no
 * entry), then the entry goes through the ledger's own lot keeping (an expiry entry has nothing left to do).
 */
function lotsStep(state: MemberLotsRecord, e: LedgerEntryRecord, balanceBefore: number, rules: ProgramRules, at: number): MemberLotsRecord {
  const settled = expire(state, rules.points, at, balanceBefore).state;
  return e.type === 'expire' ? settled : lotsAfter(settled, [e], rules, at);
}

/**
 * What waited at `at`: the points activated after `at` whose wait had begun by then, and the points
 * still waiting now whose wait had begun by then (a wait begins `pendingDays` before activation).
 */
export function waitingAt(
  later: readonly LedgerEntryRecord[],
  waitingNow: readonly PendingPointsRecord[],
  rules: ProgramRules,
  at: number,
): PendingPointsRecord[] {
  const wait = rules.points.pendingDays * DAY_MS;
  const activated = later.filter(isActivation).map((e) => ({ orderId: e.source.orderId ?? '', points: e.amount, activatesAt: Date.parse(e.createdAt) }));
  return [...activated, ...waitingNow].filter((p) => p.activatesAt > at && p.activatesAt - wait <= at);
}

/**
 * Replays `entries` (the member's ledger, oldest first; those after `at` are ignored but for the
 * activations that tell what waited) for a member enrolled at `createdAt`, under `rules`.
 */
export function explainAt(
  input: { entries: readonly LedgerEntryRecord[]; createdAt: number; waitingNow: readonly PendingPointsRecord[]; statusPending: number },
  rules: ProgramRules,
  at: number,
): Explained {
  const lowest = rules.tiers.levels[0]?.key ?? '';
  let tier: TierReplay = { state: { tier: lowest, reachedAt: input.createdAt, retainedUntil: 0 }, days: {}, lifetime: 0, orders: 0, value: 0, reviewAt: null };
  let lots = NO_LOTS;
  let balance = 0;
  let replayed = 0;
  const upTo = input.entries.filter((e) => Date.parse(e.createdAt) <= at);
  const spends = new Set<string>();
  for (const e of upTo) {
    const t = Date.parse(e.createdAt);
    lots = lotsStep(lots, e, balance, rules, t);
    balance = e.balanceAfter;
    if (isSpend(e.type)) spends.add(e.id);
    tier = tierStep(reviewsUntil(tier, rules, t), rules, t, lifetimeMove(e, spends), orderMove(e));
    replayed++;
  }
  tier = reviewsUntil(tier, rules, at);
  const now = tierStep(tier, rules, at, 0, 0);
  lots = expire(lots, rules.points, at, balance).state;
  const waiting = waitingAt(input.entries.slice(upTo.length), input.waitingNow, rules, at);
  const inactive = inactivityExpiry(rules.points.expiry, lots.lastActivityAt);
  return {
    balance,
    pending: waiting.reduce((s, p) => s + p.points, 0) + input.statusPending,
    lifetime: tier.lifetime,
    lots: lots.lots.map((l) => ({
      entryId: l.id,
      points: l.points,
      earnedAt: l.earnedAt,
      expiresAt: effectiveExpiry({ lotId: l.id, remaining: l.points, earnedAt: l.earnedAt, expiresAt: l.expiresAt }, inactive),
      orderId: l.orderId,
    })),
    waiting,
    tier: {
      key: now.state.tier,
      reachedAt: now.state.reachedAt,
      retainedUntil: now.state.retainedUntil,
      value: now.value,
      windowFrom: windowStart(rules.tiers.window, at, rules.timeZone),
    },
    replayed,
  };
}
