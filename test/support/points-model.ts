import fc from 'fast-check';
import { expect } from 'vitest';
import type { LedgerEntryRecord, MemberRecord } from '../../shared/members/entities';
import { DEFAULT_RULES, type ProgramRules } from '../../shared/program/schemas';

/**
 * A reference model of a member's points and the commands that drive it beside the real engine
 * (the service layer on DynamoDB Local, or on the memory stores): random sequences of orders
 * (pending and completed, some granted a campaign's points), partial and full refunds,
 * cancellations, completions, orders taken back to pending, manual earns, deductions and
 * corrections, entries reversed by id, and clock advances with the due work they trigger. After every command the engine and
 * the model must agree, and the engine must keep its own books: the balance is the sum of the
 * ledger and of the open lots (less what a reversal took beyond them), pending points are never
 * spendable, every point is accounted for by type, and the tier is the model's.
 *
 * The model is written from the rules as docs/program.md states them, not from the engine's code:
 * a spend takes the lots that expire first; an order's points wait `pendingDays` and then open a
 * lot; a refund takes back its proportional share from the order's waiting points, then from its
 * expired points (not again), then from the balance, the order's own lots first. A campaign's
 * points on an order are a part of their own beside the order's (its claim): they wait with the
 * order, go back in proportion (rounded down on the running refunded total) the same way, go back
 * to pending with it and come back once when it completes again. A correction lowers balance and
 * lifetime (never beyond lifetime); a reversal by id undoes an entry once, taking a credit from the
 * lot it opened first.
 *
 * A new kind of change is one more command class below and one more method of `PointsEngine`.
 */

const DAY = 86_400_000;

/** The program the model knows: 1 point per unit, lots for 30 days, 7 days pending, a lifetime tier ladder. */
export const MODEL_RULES: ProgramRules = {
  ...DEFAULT_RULES,
  points: { expiry: { policy: 'fixed_days', days: 30 }, warnDays: [], pendingDays: 7 },
  tiers: {
    metric: 'lifetime_points',
    levels: [
      { key: 'bronze', name: 'Bronze', threshold: 0 },
      { key: 'silver', name: 'Silver', threshold: 200 },
      { key: 'gold', name: 'Gold', threshold: 600 },
    ],
    window: 'lifetime',
    retainDays: 0,
    downgrade: 'to_qualified',
  },
};
const EXPIRY = 30 * DAY;
const WAIT = 7 * DAY;
/** The campaign the engines run: a `bonus_points` of this many points on every completed order that carries the SKU. */
export const BONUS_POINTS = 7;
export const BONUS_SKU = 'MODEL-BONUS';

/** What a command did, as the engine answered: done, or refused with the error code. */
export type Outcome = { ok: true } | { refused: string };

/** The engine under test, behind the calls the commands make. Amounts are whole currency units. */
export interface PointsEngine {
  /** `bonus`: the order carries the campaign's SKU (it earns the campaign's points when it completes). */
  createOrder(key: string, total: number, status: 'pending' | 'completed', bonus: boolean): Promise<Outcome>;
  /** A refund of `amount` (whole: what is left). */
  refund(key: string, amount: number | undefined): Promise<Outcome>;
  cancel(key: string, total: number): Promise<Outcome>;
  complete(key: string, total: number): Promise<Outcome>;
  /** A reconciliation of a completed order back to `pending`. */
  reopen(key: string, total: number): Promise<Outcome>;
  earn(points: number): Promise<Outcome>;
  deduct(points: number): Promise<Outcome>;
  correct(points: number): Promise<Outcome>;
  /** Reverses the member's `nth` manual entry (an earn, a deduction or a correction; not a reversal), in ledger order. */
  reverse(nth: number): Promise<Outcome>;
  /** Moves the program clock `days` ahead and runs what fell due. */
  advance(days: number): Promise<void>;
  /** Moves the program clock one millisecond (no due time can fall in it: see `tick`). */
  tick(): Promise<void>;
  member(): Promise<MemberRecord>;
  /** The member's ledger, in revision order. */
  ledger(): Promise<LedgerEntryRecord[]>;
  /** The member's points explained at `at` (default: now), replayed from the ledger (`GET .../explain`). */
  explain(at?: number): Promise<Explained>;
}

/** What the explanation answers that the model checks. */
export interface Explained {
  points: { balance: number; pending: number; lifetime: number };
  tier: string;
  lots: { points: number; expiresAt: number | null }[];
}

/** What the member read answered at a moment (the last change at that moment). */
export interface Snapshot {
  at: number;
  balance: number;
  lots: [string, number][];
}

interface Lot {
  points: number;
  earnedAt: number;
  expiresAt: number;
  /** Whose points: an order's key, its campaign share's `<key>/bonus`, or none. */
  order: string | null;
  /** The manual entry that opened it (what its reversal takes first). */
  entry: number | null;
  seq: number;
  /** The engine's id of the lot, read after the change that opened it: it orders lots opened at one instant (nothing else does). */
  id?: string;
}

/** What an order's own points, or a campaign's share of them, hold beside the lots. */
interface Part {
  claim: string;
  waiting: { points: number; activatesAt: number } | null;
  /** Its points that expired and no reversal has taken back yet. */
  expired: number;
}

interface Order extends Part {
  key: string;
  total: number;
  refunded: number;
  status: 'pending' | 'completed' | 'cancelled';
  earned: number;
  reversed: number;
  /** Whether it carries the campaign's SKU; the campaign is evaluated once, at its first completion. */
  wantsBonus: boolean;
  evaluated: boolean;
  bonus: (Part & { points: number; reversed: number }) | null;
}

/** A manual entry as the model booked it: what its reversal undoes. */
interface ManualEntry {
  type: 'earn' | 'deduct' | 'correction';
  amount: number;
  reversed: boolean;
}

/** The ledger's totals by type, as positive amounts (corrections: what they took, less what reversals gave back). */
type Totals = Record<'earn' | 'campaign' | 'deduct' | 'expire' | 'refund_reversal' | 'adjustment' | 'correction', number>;

export class PointsModel {
  balance = 0;
  pending = 0;
  lifetime = 0;
  lots: Lot[] = [];
  orders: Order[] = [];
  totals: Totals = { earn: 0, campaign: 0, deduct: 0, expire: 0, refund_reversal: 0, adjustment: 0, correction: 0 };
  manual: ManualEntry[] = [];
  /** Whether a reversal ever took more than the open lots held (the balance then stays below them until expiry evens it). */
  overdrawn = false;
  /** Whether a reversal took back expired points (lifetime moved without a ledger entry: the replay cannot see it). */
  absorbedExpired = false;
  /** The balance and lots after each command, for the explanation of past moments. */
  snapshots: Snapshot[] = [];
  private seq = 0;
  constructor(public now: number) {}

  get lotPoints(): number {
    return this.lots.reduce((s, l) => s + l.points, 0);
  }

  tier(): string {
    let key = MODEL_RULES.tiers.levels[0]!.key;
    for (const l of MODEL_RULES.tiers.levels) if (this.lifetime >= l.threshold) key = l.key;
    return key;
  }

  private open(points: number, at: number, order: string | null, entry: number | null = null): void {
    this.lots.push({ points, earnedAt: at, expiresAt: at + EXPIRY, order, entry, seq: this.seq++ });
  }

  /** Takes `points` from `lots` in spending order (what expires first, then the oldest, then by id); answers what could not be taken. */
  private take(points: number, from: (l: Lot) => boolean): number {
    let left = points;
    const order = this.lots.filter(from).sort(spendOrder);
    for (const lot of order) {
      const n = Math.min(lot.points, left);
      lot.points -= n;
      left -= n;
    }
    this.lots = this.lots.filter((l) => l.points > 0);
    return left;
  }

  earn(points: number): void {
    this.balance += points;
    this.lifetime += points;
    this.totals.earn += points;
    this.open(points, this.now, null, this.manual.push({ type: 'earn', amount: points, reversed: false }) - 1);
  }

  /** A spend: refused beyond the balance (pending points are not spendable). */
  deduct(points: number): boolean {
    if (points > this.balance) return false;
    this.balance -= points;
    this.totals.deduct += points;
    this.take(points, () => true);
    this.manual.push({ type: 'deduct', amount: points, reversed: false });
    return true;
  }

  /** A correction: balance and lifetime down (the balance may go below zero), refused beyond lifetime. */
  correct(points: number): boolean {
    if (points > this.lifetime) return false;
    this.takeBack(points, () => false);
    this.lifetime -= points;
    this.totals.correction += points;
    this.manual.push({ type: 'correction', amount: points, reversed: false });
    return true;
  }

  /** Reverses a manual entry once: a credit taken back from the lot it opened first; a debit given back as a lot of now. */
  reverseEntry(nth: number): boolean {
    const e = this.manual[nth]!;
    if (e.reversed) return false;
    e.reversed = true;
    if (e.type === 'earn') {
      this.takeBack(e.amount, (l) => l.entry === nth);
      this.lifetime -= e.amount;
      this.totals.correction += e.amount;
      return true;
    }
    this.balance += e.amount;
    if (e.type === 'correction') this.lifetime += e.amount;
    this.totals.correction -= e.amount;
    this.open(e.amount, this.now, null);
    return true;
  }

  /** The balance loses `points`, taken from the lots `own` picks first, then in spending order; beyond the lots, the balance goes below them. */
  private takeBack(points: number, own: (l: Lot) => boolean): void {
    this.balance -= points;
    if (this.take(this.take(points, own), () => true) > 0) this.overdrawn = true;
  }

  createOrder(key: string, total: number, status: 'pending' | 'completed', wantsBonus: boolean): void {
    const o: Order = {
      key,
      claim: key,
      total,
      refunded: 0,
      status: 'pending',
      earned: total,
      reversed: 0,
      waiting: null,
      expired: 0,
      wantsBonus,
      evaluated: false,
      bonus: null,
    };
    this.orders.push(o);
    this.pending += total;
    if (status === 'completed') this.complete(o);
  }

  /** Takes back `points` of an order's part: a pending order's from pending; else its waiting points, its expired points, then the balance (its own lots first). */
  private reverse(o: Order, part: Part, points: number, type: 'refund_reversal' | 'adjustment'): void {
    if (o.status === 'pending') {
      this.pending -= points;
      return;
    }
    const cancelled = Math.min(part.waiting?.points ?? 0, points);
    if (part.waiting) part.waiting.points -= cancelled;
    if (part.waiting?.points === 0) part.waiting = null;
    this.pending -= cancelled;
    const absorbed = Math.min(part.expired, points - cancelled);
    part.expired -= absorbed;
    if (absorbed > 0) this.absorbedExpired = true;
    const rest = points - cancelled - absorbed;
    this.lifetime -= points - cancelled;
    this.totals[type] += rest;
    this.takeBack(rest, (l) => l.order === part.claim);
  }

  /** The order's own part, then its campaign's, each its share of what is now refunded (all of it once cancelled). */
  private takeShares(o: Order, type: 'refund_reversal' | 'adjustment', all: boolean): void {
    const share = (points: number) => (all ? points : refundedShare(o, points));
    const base = share(o.earned) - o.reversed;
    o.reversed += base;
    this.reverse(o, o, base, type);
    if (!o.bonus) return;
    const bonus = share(o.bonus.points) - o.bonus.reversed;
    o.bonus.reversed += bonus;
    this.reverse(o, o.bonus, bonus, type);
  }

  refund(o: Order, amount: number): void {
    o.refunded += amount;
    this.takeShares(o, 'refund_reversal', false);
  }

  cancel(o: Order): void {
    this.takeShares(o, 'adjustment', true);
    o.status = 'cancelled';
  }

  /** A pending order completes: its points (what refunds left) and its campaign's (granted at the first completion) start their wait. */
  complete(o: Order): void {
    o.status = 'completed';
    const wait = (p: Part, net: number) => {
      this.pending += net;
      if (net > 0) p.waiting = { points: net, activatesAt: this.now + WAIT };
    };
    this.pending -= o.earned - o.reversed + (o.bonus ? o.bonus.points - o.bonus.reversed : 0);
    wait(o, o.earned - o.reversed);
    // Granted on all the order earned, less the share its refunds so far take back (never landing).
    if (!o.evaluated && o.wantsBonus)
      o.bonus = { claim: `${o.key}/bonus`, points: BONUS_POINTS, reversed: refundedShare(o, BONUS_POINTS), waiting: null, expired: 0 };
    o.evaluated = true;
    if (o.bonus) wait(o.bonus, o.bonus.points - o.bonus.reversed);
  }

  /** A completed order back to pending: each part taken back as a cancellation takes it, what is left pending with the order. */
  reopen(o: Order): void {
    const parts: [Part, number][] = [[o, o.earned - o.reversed], ...(o.bonus ? [[o.bonus, o.bonus.points - o.bonus.reversed] as [Part, number]] : [])];
    for (const [part, net] of parts) {
      this.reverse(o, part, net, 'adjustment');
      this.pending += net;
    }
    o.status = 'pending';
  }

  /** Every order's own part, then its campaign's. */
  private parts(): { part: Part; campaign: boolean }[] {
    return this.orders.flatMap((o) => [{ part: o as Part, campaign: false }, ...(o.bonus ? [{ part: o.bonus, campaign: true }] : [])]);
  }

  /** The clock moves to `to`: each activation and expiry runs at its own moment, in time order (an activation first; an order's own before its campaign's). */
  advanceTo(to: number): void {
    for (;;) {
      const next = this.parts()
        .filter(({ part }) => part.waiting)
        .sort((a, b) => a.part.waiting!.activatesAt - b.part.waiting!.activatesAt)[0];
      const expiry = Math.min(...this.lots.map((l) => l.expiresAt));
      const at = Math.min(next?.part.waiting?.activatesAt ?? Number.POSITIVE_INFINITY, expiry);
      if (at > to) break;
      if (next && next.part.waiting!.activatesAt === at) {
        const points = next.part.waiting!.points;
        next.part.waiting = null;
        this.pending -= points;
        this.balance += points;
        this.lifetime += points;
        this.totals[next.campaign ? 'campaign' : 'earn'] += points;
        this.open(points, at, next.part.claim);
        continue;
      }
      this.expireAt(at);
    }
    this.now = to;
  }

  /** Lots opened at one instant are ordered by the engine's ids (`spendOrder`): each new lot learns its engine id by its instant and claim. */
  learnIds(engineLots: readonly { id: string; earnedAt: number; orderId: string | null }[]): void {
    const isBonus = (claim: string | null) => claim?.includes('/') ?? false;
    for (const lot of this.lots.filter((l) => l.id === undefined)) {
      lot.id = engineLots.find((e) => e.earnedAt === lot.earnedAt && isBonus(e.orderId) === isBonus(lot.order))?.id;
    }
  }

  /** The lots due at `at` leave; the balance loses their points, never more than it holds; each order remembers what of it expired. */
  private expireAt(at: number): void {
    const due = this.lots.filter((l) => l.expiresAt <= at).sort(spendOrder);
    const total = due.reduce((s, l) => s + l.points, 0);
    let taken = Math.min(total, Math.max(0, this.balance));
    this.balance -= taken;
    this.totals.expire += taken;
    for (const lot of due) {
      const n = Math.min(lot.points, taken);
      taken -= n;
      const owner = this.parts().find(({ part }) => part.claim === lot.order);
      if (owner) owner.part.expired += n;
    }
    this.lots = this.lots.filter((l) => l.expiresAt > at);
  }
}

/** What an order's refunds so far take back of `points` it gave: their share of its total, rounded down; all once refunded in full. */
const refundedShare = (o: Order, points: number) => (o.refunded >= o.total ? points : Math.floor((points * o.refunded) / o.total));

/** Spending order: what expires first, then the oldest, then by the engine's id (lots opened at one instant), then as opened. */
const spendOrder = (a: Lot, b: Lot) =>
  a.expiresAt - b.expiresAt || a.earnedAt - b.earnedAt || (a.id && b.id && a.id !== b.id ? (a.id < b.id ? -1 : 1) : 0) || a.seq - b.seq;

/** The engine and the model agree, and the engine's books hold. */
export async function agree(m: PointsModel, e: PointsEngine): Promise<void> {
  const [member, ledger] = await Promise.all([e.member(), e.ledger()]);
  const real = member.lots ?? { lots: [], pending: [] };
  const sum = (type?: string) => ledger.filter((x) => !type || x.type === type).reduce((s, x) => s + x.amount, 0);
  const taken = (type: string) => 0 - sum(type) || 0;
  const lots = (real.lots as { points: number; expiresAt: number | null }[]).reduce((s, l) => s + l.points, 0);
  expect({ balance: member.balance, pending: member.pending, lifetime: member.lifetime, tier: member.tier }).toEqual({
    balance: m.balance,
    pending: m.pending,
    lifetime: m.lifetime,
    tier: m.tier(),
  });
  // The balance is the sum of the ledger, each entry's balanceAfter the running sum.
  expect(sum()).toBe(member.balance);
  let running = 0;
  for (const x of ledger) expect(x.balanceAfter).toBe((running += x.amount));
  // Every point accounted for: what each type of entry moved is what the model says it should.
  expect({
    earn: sum('earn'),
    campaign: sum('campaign'),
    deduct: taken('deduct'),
    expire: taken('expire'),
    refund_reversal: taken('refund_reversal'),
    adjustment: taken('adjustment'),
    correction: taken('correction'),
  }).toEqual(m.totals);
  // The open lots hold the balance (a reversal beyond them leaves the balance lower than its lots); by expiry date as the model has them.
  expect(lots).toBe(m.lotPoints);
  expect(lots).toBeGreaterThanOrEqual(member.balance);
  if (!m.overdrawn) expect(lots).toBe(member.balance);
  const byDate = lotsByDate;
  expect(byDate(real.lots)).toEqual(byDate(m.lots));
  // What waits out pendingDays is what the model's orders have waiting.
  const waiting = real.pending.reduce((s, p) => s + p.points, 0);
  expect(waiting).toBe(m.orders.reduce((s, o) => s + (o.waiting?.points ?? 0) + (o.bonus?.waiting?.points ?? 0), 0));
  m.learnIds(real.lots);
  // The balance explained now, replayed from the ledger, is the member's (lifetime and tier unless a refund took expired points back).
  const x = await e.explain();
  const said = { ...x.points, tier: x.tier, lots: byDate(x.lots) };
  const is = { balance: member.balance, pending: member.pending, lifetime: member.lifetime, tier: member.tier, lots: byDate(real.lots) };
  if (m.absorbedExpired) expect({ ...said, lifetime: 0, tier: '' }).toEqual({ ...is, lifetime: 0, tier: '' });
  else expect(said).toEqual(is);
  const snapshot = { at: m.now, balance: member.balance, lots: byDate(real.lots) };
  m.snapshots = [...m.snapshots.filter((s) => s.at !== m.now), snapshot];
}

export const lotsByDate = (xs: { points: number; expiresAt: number | null }[]): [string, number][] => {
  const dates = new Map<string, number>();
  for (const l of xs) dates.set(String(l.expiresAt), (dates.get(String(l.expiresAt)) ?? 0) + l.points);
  return [...dates].sort();
};

/** Every past moment of the sequence explained: the balance and the lots as the member read answered them then. */
export async function pastExplained(m: PointsModel, e: PointsEngine): Promise<void> {
  for (const s of m.snapshots) {
    const x = await e.explain(s.at);
    expect({ at: s.at, balance: x.points.balance, lots: lotsByDate(x.lots) }).toEqual(s);
  }
}

type Cmd = fc.AsyncCommand<PointsModel, PointsEngine>;

const okOrThrow = (o: Outcome, what: string) => {
  if (!('ok' in o)) throw new Error(`${what} refused: ${o.refused}`);
};

let orderSeq = 0;

/**
 * Each change a millisecond after the one before, as in life: two lots earned at the same instant
 * and expiring together are taken in an order neither the rules nor the model fix (the ids decide).
 * Due times are whole days after a change, so none falls inside a tick.
 */
async function tick(m: PointsModel, e: PointsEngine): Promise<void> {
  await e.tick();
  m.now += 1;
}

class CreateOrder implements Cmd {
  constructor(
    readonly total: number,
    readonly status: 'pending' | 'completed',
    readonly bonus: boolean,
  ) {}
  check = () => true;
  async run(m: PointsModel, e: PointsEngine) {
    await tick(m, e);
    const key = `PM-${Date.now().toString(36)}-${++orderSeq}`;
    okOrThrow(await e.createOrder(key, this.total, this.status, this.bonus), 'order');
    m.createOrder(key, this.total, this.status, this.bonus);
    await agree(m, e);
  }
  toString = () => `order(${this.total}, ${this.status}${this.bonus ? ', bonus' : ''})`;
}

/** A refund of part (`share` of what is left, rounded down to a whole unit, at least 1) or all of an order. */
class Refund implements Cmd {
  constructor(
    readonly pick: number,
    readonly share: number | null,
  ) {}
  private target = (m: PointsModel) => refundable(m)[this.pick % Math.max(1, refundable(m).length)];
  check = (m: Readonly<PointsModel>) => refundable(m as PointsModel).length > 0;
  async run(m: PointsModel, e: PointsEngine) {
    await tick(m, e);
    const o = this.target(m)!;
    const left = o.total - o.refunded;
    const amount = this.share === null ? left : Math.max(1, Math.floor(left * this.share));
    okOrThrow(await e.refund(o.key, this.share === null ? undefined : amount), 'refund');
    m.refund(o, amount);
    await agree(m, e);
  }
  toString = () => `refund(#${this.pick}, ${this.share ?? 'all'})`;
}

const refundable = (m: PointsModel) => m.orders.filter((o) => o.status !== 'cancelled' && o.refunded < o.total);
const live = (m: PointsModel) => m.orders.filter((o) => o.status !== 'cancelled');

class Cancel implements Cmd {
  constructor(readonly pick: number) {}
  check = (m: Readonly<PointsModel>) => live(m as PointsModel).length > 0;
  async run(m: PointsModel, e: PointsEngine) {
    await tick(m, e);
    const all = live(m);
    const o = all[this.pick % all.length]!;
    okOrThrow(await e.cancel(o.key, o.total), 'cancel');
    m.cancel(o);
    await agree(m, e);
  }
  toString = () => `cancel(#${this.pick})`;
}

class Complete implements Cmd {
  constructor(readonly pick: number) {}
  private pendingOrders = (m: PointsModel) => m.orders.filter((o) => o.status === 'pending');
  check = (m: Readonly<PointsModel>) => this.pendingOrders(m as PointsModel).length > 0;
  async run(m: PointsModel, e: PointsEngine) {
    await tick(m, e);
    const all = this.pendingOrders(m);
    const o = all[this.pick % all.length]!;
    okOrThrow(await e.complete(o.key, o.total), 'complete');
    m.complete(o);
    await agree(m, e);
  }
  toString = () => `complete(#${this.pick})`;
}

/** A completed order reconciled back to pending (its points, and its campaign's, pending with it). */
class Reopen implements Cmd {
  constructor(readonly pick: number) {}
  private completed = (m: PointsModel) => m.orders.filter((o) => o.status === 'completed');
  check = (m: Readonly<PointsModel>) => this.completed(m as PointsModel).length > 0;
  async run(m: PointsModel, e: PointsEngine) {
    await tick(m, e);
    const all = this.completed(m);
    const o = all[this.pick % all.length]!;
    okOrThrow(await e.reopen(o.key, o.total), 'reopen');
    m.reopen(o);
    await agree(m, e);
  }
  toString = () => `reopen(#${this.pick})`;
}

/** A correction: done within lifetime points, refused beyond them (409 CONFLICT) and nothing changes. */
class Correct implements Cmd {
  constructor(readonly points: number) {}
  check = () => true;
  async run(m: PointsModel, e: PointsEngine) {
    await tick(m, e);
    const outcome = await e.correct(this.points);
    expect(outcome).toEqual(m.correct(this.points) ? { ok: true } : { refused: 'CONFLICT' });
    await agree(m, e);
  }
  toString = () => `correct(${this.points})`;
}

/** A manual entry reversed by id: once; a second time refused (409 CONFLICT) and nothing changes. */
class ReverseEntry implements Cmd {
  constructor(readonly pick: number) {}
  check = (m: Readonly<PointsModel>) => m.manual.length > 0;
  async run(m: PointsModel, e: PointsEngine) {
    await tick(m, e);
    const nth = this.pick % m.manual.length;
    const outcome = await e.reverse(nth);
    expect(outcome).toEqual(m.reverseEntry(nth) ? { ok: true } : { refused: 'CONFLICT' });
    await agree(m, e);
  }
  toString = () => `reverse(#${this.pick})`;
}

class Earn implements Cmd {
  constructor(readonly points: number) {}
  check = () => true;
  async run(m: PointsModel, e: PointsEngine) {
    await tick(m, e);
    okOrThrow(await e.earn(this.points), 'earn');
    m.earn(this.points);
    await agree(m, e);
  }
  toString = () => `earn(${this.points})`;
}

/** A deduction: done within the balance, refused beyond it (409 INSUFFICIENT_POINTS) and nothing changes. */
class Deduct implements Cmd {
  constructor(readonly points: number) {}
  check = () => true;
  async run(m: PointsModel, e: PointsEngine) {
    await tick(m, e);
    const outcome = await e.deduct(this.points);
    expect(outcome).toEqual(m.deduct(this.points) ? { ok: true } : { refused: 'INSUFFICIENT_POINTS' });
    await agree(m, e);
  }
  toString = () => `deduct(${this.points})`;
}

/** A member spends everything spendable (a reward worth the whole balance): later refunds then reach spent points. */
class SpendAll implements Cmd {
  check = (m: Readonly<PointsModel>) => m.balance > 0;
  async run(m: PointsModel, e: PointsEngine) {
    await tick(m, e);
    const all = m.balance;
    okOrThrow(await e.deduct(all), 'spend all');
    m.deduct(all);
    await agree(m, e);
  }
  toString = () => 'spendAll';
}

/** Pending points are never spendable: a deduction of the balance and one point of what is pending is refused. */
class SpendPending implements Cmd {
  check = (m: Readonly<PointsModel>) => m.pending > 0 && m.balance >= 0;
  async run(m: PointsModel, e: PointsEngine) {
    await tick(m, e);
    expect(await e.deduct(m.balance + 1)).toEqual({ refused: 'INSUFFICIENT_POINTS' });
    await agree(m, e);
  }
  toString = () => 'spendPending';
}

class Advance implements Cmd {
  constructor(readonly days: number) {}
  check = () => true;
  async run(m: PointsModel, e: PointsEngine) {
    await e.advance(this.days);
    m.advanceTo(m.now + this.days * DAY);
    await agree(m, e);
  }
  toString = () => `advance(${this.days}d)`;
}

/**
 * The commands, orders (half of them carrying the campaign's SKU) and clock advances the likeliest,
 * then refunds, earns and spending it all (so refunds reach spent points); amounts small enough that
 * tiers, expiries and shortfalls all happen.
 */
export const pointsCommands = (maxCommands: number) =>
  fc.commands(
    [
      fc.oneof(
        {
          weight: 3,
          arbitrary: fc
            .tuple(fc.integer({ min: 1, max: 300 }), fc.constantFrom('pending' as const, 'completed' as const), fc.boolean())
            .map(([t, s, b]) => new CreateOrder(t, s, b)),
        },
        { weight: 3, arbitrary: fc.integer({ min: 1, max: 25 }).map((d) => new Advance(d)) },
        {
          weight: 2,
          arbitrary: fc.tuple(fc.nat(10), fc.option(fc.double({ min: 0.1, max: 0.9, noNaN: true }), { nil: null })).map(([p, s]) => new Refund(p, s)),
        },
        { weight: 2, arbitrary: fc.integer({ min: 1, max: 250 }).map((n) => new Earn(n)) },
        { weight: 2, arbitrary: fc.constant(new SpendAll()) },
        { weight: 1, arbitrary: fc.integer({ min: 1, max: 300 }).map((n) => new Deduct(n)) },
        { weight: 1, arbitrary: fc.nat(10).map((p) => new Cancel(p)) },
        { weight: 1, arbitrary: fc.nat(10).map((p) => new Complete(p)) },
        { weight: 1, arbitrary: fc.constant(new SpendPending()) },
        { weight: 1, arbitrary: fc.nat(10).map((p) => new Reopen(p)) },
        { weight: 1, arbitrary: fc.integer({ min: 1, max: 250 }).map((n) => new Correct(n)) },
        { weight: 1, arbitrary: fc.nat(10).map((p) => new ReverseEntry(p)) },
      ),
    ],
    { maxCommands, size: 'max' },
  );

/** How long a run is: `POINTS_MODEL_RUNS` and `POINTS_MODEL_SEED` override the defaults (docs/testing.md). */
export function modelRunParameters(defaults: { numRuns: number; seed: number }): { numRuns: number; seed: number } {
  const runs = Number(process.env.POINTS_MODEL_RUNS);
  const seed = Number(process.env.POINTS_MODEL_SEED);
  return { numRuns: runs > 0 ? runs : defaults.numRuns, seed: Number.isInteger(seed) && process.env.POINTS_MODEL_SEED ? seed : defaults.seed };
}
