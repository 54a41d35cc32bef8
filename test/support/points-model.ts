import fc from 'fast-check';
import { expect } from 'vitest';
import type { LedgerEntryRecord, MemberRecord } from '../../shared/members/entities';
import { DEFAULT_RULES, type ProgramRules } from '../../shared/program/schemas';

/**
 * A reference model of a member's points and the commands that drive it beside the real engine
 * (the service layer on DynamoDB Local, or on the memory stores): random sequences of orders
 * (pending and completed), partial and full refunds, cancellations, completions, manual earns and
 * deductions, and clock advances with the due work they trigger. After every command the engine and
 * the model must agree, and the engine must keep its own books: the balance is the sum of the
 * ledger and of the open lots (less what a reversal took beyond them), pending points are never
 * spendable, every point is accounted for by type, and the tier is the model's.
 *
 * The model is written from the rules as docs/program.md states them, not from the engine's code:
 * a spend takes the lots that expire first; an order's points wait `pendingDays` and then open a
 * lot; a refund takes back its proportional share from the order's waiting points, then from its
 * expired points (not again), then from the balance, the order's own lots first.
 *
 * A new kind of change (a campaign grant, a correction) is one more command class below and one
 * more method of `PointsEngine`.
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

/** What a command did, as the engine answered: done, or refused with the error code. */
export type Outcome = { ok: true } | { refused: string };

/** The engine under test, behind the calls the commands make. Amounts are whole currency units. */
export interface PointsEngine {
  createOrder(key: string, total: number, status: 'pending' | 'completed'): Promise<Outcome>;
  /** A refund of `amount` (whole: what is left). */
  refund(key: string, amount: number | undefined): Promise<Outcome>;
  cancel(key: string, total: number): Promise<Outcome>;
  complete(key: string, total: number): Promise<Outcome>;
  earn(points: number): Promise<Outcome>;
  deduct(points: number): Promise<Outcome>;
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
  order: string | null;
  seq: number;
}

interface Order {
  key: string;
  total: number;
  refunded: number;
  status: 'pending' | 'completed' | 'cancelled';
  earned: number;
  reversed: number;
  waiting: { points: number; activatesAt: number } | null;
  /** Its points that expired and no reversal has taken back yet. */
  expired: number;
}

/** The ledger's totals by type, as positive amounts. */
type Totals = Record<'earn' | 'deduct' | 'expire' | 'refund_reversal' | 'adjustment', number>;

export class PointsModel {
  balance = 0;
  pending = 0;
  lifetime = 0;
  lots: Lot[] = [];
  orders: Order[] = [];
  totals: Totals = { earn: 0, deduct: 0, expire: 0, refund_reversal: 0, adjustment: 0 };
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

  private open(points: number, at: number, order: string | null): void {
    this.lots.push({ points, earnedAt: at, expiresAt: at + EXPIRY, order, seq: this.seq++ });
  }

  /** Takes `points` from `lots` in spending order (what expires first, then the oldest); answers what could not be taken. */
  private take(points: number, from: (l: Lot) => boolean): number {
    let left = points;
    const order = this.lots.filter(from).sort((a, b) => a.expiresAt - b.expiresAt || a.earnedAt - b.earnedAt || a.seq - b.seq);
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
    this.open(points, this.now, null);
  }

  /** A spend: refused beyond the balance (pending points are not spendable). */
  deduct(points: number): boolean {
    if (points > this.balance) return false;
    this.balance -= points;
    this.totals.deduct += points;
    this.take(points, () => true);
    return true;
  }

  createOrder(key: string, total: number, status: 'pending' | 'completed'): void {
    const o: Order = { key, total, refunded: 0, status, earned: total, reversed: 0, waiting: null, expired: 0 };
    this.orders.push(o);
    this.pending += total;
    if (status === 'completed' && total > 0) o.waiting = { points: total, activatesAt: this.now + WAIT };
  }

  /** Takes back `points` of a completed order: its waiting points, its expired points, then the balance (its own lots first). */
  private reverse(o: Order, points: number, type: 'refund_reversal' | 'adjustment'): void {
    if (o.status === 'pending') {
      this.pending -= points;
      return;
    }
    const cancelled = Math.min(o.waiting?.points ?? 0, points);
    if (o.waiting) o.waiting.points -= cancelled;
    if (o.waiting?.points === 0) o.waiting = null;
    this.pending -= cancelled;
    const absorbed = Math.min(o.expired, points - cancelled);
    o.expired -= absorbed;
    if (absorbed > 0) this.absorbedExpired = true;
    const rest = points - cancelled - absorbed;
    this.lifetime -= points - cancelled;
    this.balance -= rest;
    this.totals[type] += rest;
    const short = this.take(
      this.take(rest, (l) => l.order === o.key),
      () => true,
    );
    if (short > 0) this.overdrawn = true;
  }

  refund(o: Order, amount: number): void {
    o.refunded += amount;
    const reversed = o.refunded >= o.total ? o.earned : Math.floor((o.earned * o.refunded) / o.total);
    const points = reversed - o.reversed;
    o.reversed = reversed;
    this.reverse(o, points, 'refund_reversal');
  }

  cancel(o: Order): void {
    const points = o.earned - o.reversed;
    o.reversed = o.earned;
    this.reverse(o, points, 'adjustment');
    o.status = 'cancelled';
  }

  /** A pending order completes: its points (what refunds left) start their wait. */
  complete(o: Order): void {
    o.status = 'completed';
    const net = o.earned - o.reversed;
    if (net > 0) o.waiting = { points: net, activatesAt: this.now + WAIT };
  }

  /** The clock moves to `to`: each activation and expiry runs at its own moment, in time order (an activation first). */
  advanceTo(to: number): void {
    for (;;) {
      const activation = this.orders.filter((o) => o.waiting).sort((a, b) => a.waiting!.activatesAt - b.waiting!.activatesAt)[0];
      const expiry = Math.min(...this.lots.map((l) => l.expiresAt));
      const at = Math.min(activation?.waiting?.activatesAt ?? Number.POSITIVE_INFINITY, expiry);
      if (at > to) break;
      if (activation && activation.waiting!.activatesAt === at) {
        const points = activation.waiting!.points;
        activation.waiting = null;
        this.pending -= points;
        this.balance += points;
        this.lifetime += points;
        this.totals.earn += points;
        this.open(points, at, activation.key);
        continue;
      }
      this.expireAt(at);
    }
    this.now = to;
  }

  /** The lots due at `at` leave; the balance loses their points, never more than it holds; each order remembers what of it expired. */
  private expireAt(at: number): void {
    const due = this.lots.filter((l) => l.expiresAt <= at).sort((a, b) => a.expiresAt - b.expiresAt || a.earnedAt - b.earnedAt || a.seq - b.seq);
    const total = due.reduce((s, l) => s + l.points, 0);
    let taken = Math.min(total, Math.max(0, this.balance));
    this.balance -= taken;
    this.totals.expire += taken;
    for (const lot of due) {
      const n = Math.min(lot.points, taken);
      taken -= n;
      const o = this.orders.find((x) => x.key === lot.order);
      if (o) o.expired += n;
    }
    this.lots = this.lots.filter((l) => l.expiresAt > at);
  }
}

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
    deduct: taken('deduct'),
    expire: taken('expire'),
    refund_reversal: taken('refund_reversal'),
    adjustment: taken('adjustment'),
  }).toEqual(m.totals);
  // The open lots hold the balance (a reversal beyond them leaves the balance lower than its lots); by expiry date as the model has them.
  expect(lots).toBe(m.lotPoints);
  expect(lots).toBeGreaterThanOrEqual(member.balance);
  if (!m.overdrawn) expect(lots).toBe(member.balance);
  const byDate = lotsByDate;
  expect(byDate(real.lots)).toEqual(byDate(m.lots));
  // What waits out pendingDays is what the model's orders have waiting.
  const waiting = real.pending.reduce((s, p) => s + p.points, 0);
  expect(waiting).toBe(m.orders.reduce((s, o) => s + (o.waiting?.points ?? 0), 0));
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
  ) {}
  check = () => true;
  async run(m: PointsModel, e: PointsEngine) {
    await tick(m, e);
    const key = `PM-${Date.now().toString(36)}-${++orderSeq}`;
    okOrThrow(await e.createOrder(key, this.total, this.status), 'order');
    m.createOrder(key, this.total, this.status);
    await agree(m, e);
  }
  toString = () => `order(${this.total}, ${this.status})`;
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
 * The commands, orders and clock advances the likeliest, then refunds, earns and spending it all (so
 * refunds reach spent points); amounts small enough that tiers, expiries and shortfalls all happen.
 */
export const pointsCommands = (maxCommands: number) =>
  fc.commands(
    [
      fc.oneof(
        {
          weight: 3,
          arbitrary: fc
            .tuple(fc.integer({ min: 1, max: 300 }), fc.constantFrom('pending' as const, 'completed' as const))
            .map(([t, s]) => new CreateOrder(t, s)),
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
