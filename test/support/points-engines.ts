import { changePoints, NO_DELTA, type LedgerStore } from '../../shared/members/ledger';
import type { LedgerEntryRecord, MemberRecord } from '../../shared/members/entities';
import { nextDueAt } from '../../shared/members/member-lots';
import { stepPlan } from '../../shared/campaigns/due-work';
import { createOrder, reconcileOrder, refundOrder, type OrdersStore } from '../../shared/orders/service';
import type { CreateOrderInput, ReconcileOrderInput } from '../../shared/orders/schemas';
import { AppError } from '../../shared/platform/errors';
import { MemoryLedgerStore, MemoryOrdersStore } from './memory-stores';
import { MODEL_RULES, type Explained, type Outcome, type PointsEngine } from './points-model';
import { explainAt } from '../../shared/members/explain';

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

  private order(key: string, total: number, status: ReconcileOrderInput['status']) {
    return { externalOrderId: key, memberId: this.p.memberId, currency: 'EUR', total, status, occurredAt: new Date(this.p.now()).toISOString(), items: [] };
  }

  createOrder(key: string, total: number, status: 'pending' | 'completed') {
    const input = this.order(key, total, status) as CreateOrderInput;
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

/** The engine on the memory stores, its clock starting at `start`. */
export function memoryEngine(start: number): ServiceEngine {
  const workspaceId = 'ws_01j9z3k4m5n6p7q8r9s0t1v2w3';
  const memberId = 'mbr_01j9z3k4m5n6p7q8r9s0t1v2w3';
  const ledger = new ClockedLedgerStore();
  ledger.at = start;
  ledger.rules = MODEL_RULES;
  ledger.addMember({ id: memberId, workspaceId, tier: 'bronze', createdAt: new Date(start).toISOString() });
  const orders = new MemoryOrdersStore(ledger);
  return new ServiceEngine({
    workspaceId,
    memberId,
    orders,
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
