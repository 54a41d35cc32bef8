import { changePoints, NO_DELTA, type LedgerStore } from '../../shared/members/ledger';
import type { LedgerEntryRecord, MemberRecord } from '../../shared/members/entities';
import { nextDueAt } from '../../shared/members/member-lots';
import { stepPlan } from '../../shared/campaigns/due-work';
import { createOrder, reconcileOrder, refundOrder, type OrdersStore } from '../../shared/orders/service';
import type { CreateOrderInput, ReconcileOrderInput } from '../../shared/orders/schemas';
import { AppError } from '../../shared/platform/errors';
import { MemoryLedgerStore, MemoryOrdersStore } from './memory-stores';
import { BONUS_POINTS, BONUS_SKU, MODEL_RULES, type Explained, type Outcome, type PointsEngine } from './points-model';
import { explainAt } from '../../shared/members/explain';
import { correctionPlan, reverseEntry, tableReversalStore, type ReversalStore } from '../../shared/members/corrections';

/**
 * The engine of the points model (`points-model.ts`) on the service layer: orders, refunds and
 * reconciliations through the order service, manual earns and deductions and the due work through
 * the ledger's `changePoints`, the same calls the handlers make. `ServiceEngine` takes the stores and
 * the clock: the memory stores with a clock of the test's own (the unit run), or the table.
 */

const DAY = 86_400_000;
const outcome = async (run: () => Promise<unknown>): Promise<Outcome> => {
  try {
    await run();
    return { ok: true };
  } catch (err) {
    if (err instanceof AppError) return { refused: err.code };
    throw err;
  }
};

export interface EngineParts {
  workspaceId: string;
  memberId: string;
  orders: OrdersStore;
  /** Where a reversal by id finds and marks the entry (default: the table). */
  reversals?: ReversalStore;
  /** The program clock's now (ms). */
  now(): number;
  /** Moves the program clock `ms` ahead. */
  moveClock(ms: number): Promise<void>;
  /** The member explained at `at` (default: now). */
  explain(at?: number): Promise<Explained>;
  /** Runs what fell due up to now (default: the member's due moments through the ledger, as the due work does). */
  runDue?(now: Date): Promise<unknown>;
  member(): Promise<MemberRecord>;
  ledger(): Promise<LedgerEntryRecord[]>;
}

export class ServiceEngine implements PointsEngine {
  constructor(readonly p: EngineParts) {}

  private order(key: string, total: number, status: ReconcileOrderInput['status'], bonus = false) {
    const items = bonus ? [{ sku: BONUS_SKU, quantity: 1 }] : [];
    return { externalOrderId: key, memberId: this.p.memberId, currency: 'EUR', total, status, occurredAt: new Date(this.p.now()).toISOString(), items };
  }

  createOrder(key: string, total: number, status: 'pending' | 'completed', bonus: boolean) {
    const input = this.order(key, total, status, bonus) as CreateOrderInput;
    return outcome(() => createOrder(this.p.workspaceId, input, {}, new Date(this.p.now()), this.p.orders));
  }

  refund(key: string, amount: number | undefined) {
    return outcome(() => refundOrder(this.p.workspaceId, key, amount === undefined ? {} : { amount }, {}, new Date(this.p.now()), this.p.orders));
  }

  cancel(key: string, total: number) {
    return outcome(() => reconcileOrder(this.p.workspaceId, this.order(key, total, 'cancelled') as ReconcileOrderInput, new Date(this.p.now()), this.p.orders));
  }

  complete(key: string, total: number) {
    return outcome(() => reconcileOrder(this.p.workspaceId, this.order(key, total, 'completed') as ReconcileOrderInput, new Date(this.p.now()), this.p.orders));
  }

  reopen(key: string, total: number) {
    return outcome(() => reconcileOrder(this.p.workspaceId, this.order(key, total, 'pending') as ReconcileOrderInput, new Date(this.p.now()), this.p.orders));
  }

  /** A support correction as `changePointsManually` plans it. */
  correct(points: number) {
    return outcome(() =>
      changePoints({
        workspaceId: this.p.workspaceId,
        memberId: this.p.memberId,
        store: this.p.orders.ledger,
        plan: (member) => ({ plan: { ...correctionPlan(member, points, `correction ${points}`, null), result: () => undefined } }),
      }),
    );
  }

  /** The member's `nth` manual entry (not a reversal), in ledger order, reversed by id. */
  async reverse(nth: number) {
    const manual = (await this.p.ledger()).filter((e) => e.source.type === 'manual' && !e.source.reversedEntryId);
    const actor = { apiKeyId: null, audit: { actor: { type: 'anonymous' as const }, requestId: `model-${nth}` } };
    const store = this.p.reversals ?? tableReversalStore;
    return outcome(() => reverseEntry(this.p.workspaceId, this.p.memberId, manual[nth]!.id, { reason: 'model' }, actor, store));
  }

  /** A manual change as `changePointsManually` plans it, on this engine's store. */
  private manual(type: 'earn' | 'deduct', points: number) {
    const earn = type === 'earn';
    const source = { type: 'manual' as const, orderId: null, externalOrderId: null, apiKeyId: null };
    return outcome(() =>
      changePoints({
        workspaceId: this.p.workspaceId,
        memberId: this.p.memberId,
        store: this.p.orders.ledger,
        plan: () => ({
          plan: {
            delta: { ...NO_DELTA, balance: earn ? points : -points, lifetime: earn ? points : 0 },
            entry: { type, reason: `${type} ${points}`, source },
            requireNonNegative: !earn,
            requireActive: earn,
            result: () => undefined,
          },
        }),
      }),
    );
  }

  earn(points: number) {
    return this.manual('earn', points);
  }

  deduct(points: number) {
    return this.manual('deduct', points);
  }

  tick() {
    return this.p.moveClock(1);
  }

  async advance(days: number) {
    await this.p.moveClock(days * DAY);
    const now = new Date(this.p.now());
    await (this.p.runDue ? this.p.runDue(now) : settle(this.p.workspaceId, this.p.memberId, this.p.orders.ledger, now.getTime()));
  }

  member() {
    return this.p.member();
  }

  explain(at?: number) {
    return this.p.explain(at);
  }

  ledger() {
    return this.p.ledger();
  }
}

/** The member's due moments up to `now`, each at its own time (the due work's loop, on any ledger store). */
async function settle(workspaceId: string, memberId: string, store: LedgerStore, now: number): Promise<void> {
  for (let more = true; more; ) {
    let at = now;
    more = await changePoints<boolean>({
      workspaceId,
      memberId,
      store,
      plan: (member, rules) => {
        const due = member.lots ? nextDueAt(member.lots, rules.points) : null;
        if (due === null || due > now) return { done: false };
        at = due;
        return { plan: { ...stepPlan(member, rules, due), result: () => true } };
      },
      now: () => new Date(at),
    });
  }
}

/** A ledger store whose program clock the test moves. */
class ClockedLedgerStore extends MemoryLedgerStore {
  at = 0;
  override async clock(): Promise<Date> {
    return new Date(this.at);
  }
}

/** The memory orders store with the model's campaign: its points on every completed order that carries its SKU. */
class CampaignOrdersStore extends MemoryOrdersStore {
  override async campaignGrants(...[, , order]: Parameters<OrdersStore['campaignGrants']>) {
    if (!order.items.some((i) => i.sku === BONUS_SKU)) return [];
    const source = { type: 'campaign' as const, orderId: order.orderId, externalOrderId: order.externalOrderId, apiKeyId: null, campaignId: 'cmp_model' };
    return [{ campaignId: 'cmp_model', points: BONUS_POINTS, reason: 'Model campaign', source, steps: [] }];
  }
}

/** The engine on the memory stores, its clock starting at `start`. */
export function memoryEngine(start: number): ServiceEngine {
  const workspaceId = 'ws_01j9z3k4m5n6p7q8r9s0t1v2w3';
  const memberId = 'mbr_01j9z3k4m5n6p7q8r9s0t1v2w3';
  const ledger = new ClockedLedgerStore();
  ledger.at = start;
  ledger.rules = MODEL_RULES;
  ledger.addMember({ id: memberId, workspaceId, tier: 'bronze', createdAt: new Date(start).toISOString() });
  const orders = new CampaignOrdersStore(ledger);
  return new ServiceEngine({
    workspaceId,
    memberId,
    orders,
    reversals: {
      ledger,
      findLedgerEntry: (w, m, id) => ledger.findLedgerEntry(w, m, id),
      markReversedStep: (w, e, by, r) => ledger.markReversedStep(w, e, by, r),
    },
    now: () => ledger.at,
    moveClock: async (ms) => {
      ledger.at += ms;
    },
    member: async () => structuredClone(ledger.members.get(memberId)!),
    ledger: async () => ledger.entries.filter((e) => e.memberId === memberId).sort((a, b) => a.rev - b.rev),
    explain: async (at = ledger.at) => {
      // What explanation.ts reads, from the memory store: the member's entries, what waits now, pending orders from the last change on.
      const member = ledger.members.get(memberId)!;
      const waitingNow = member.lots?.pending ?? [];
      const statusPending = at >= Date.parse(member.updatedAt) ? member.pending - waitingNow.reduce((n, p) => n + p.points, 0) : 0;
      const entries = ledger.entries.filter((e) => e.memberId === memberId).sort((a, b) => a.rev - b.rev);
      const x = explainAt({ entries, createdAt: Date.parse(member.createdAt), waitingNow, statusPending }, MODEL_RULES, at);
      return { points: { balance: x.balance, pending: x.pending, lifetime: x.lifetime }, tier: x.tier.key, lots: x.lots };
    },
  });
}
