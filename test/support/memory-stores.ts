import { RedeemRefused } from '../../shared/coupons/repository';
import type { CodeLookup } from '../../shared/coupons/entities';
import { DuplicateOrder, type RefundRecord } from '../../shared/orders/repository';
import { MemberChanged, type BalanceState } from '../../shared/members/repository';
import { StaleRead } from '../../shared/platform/data/concurrency';
import type { TransactStep } from '../../shared/platform/data/transactions';
import { memberErased } from '../../shared/platform/errors';
import type { RedemptionStore } from '../../shared/coupons/service';
import type { CouponRecord } from '../../shared/coupons/entities';
import type { LedgerStore, PlannedGrant } from '../../shared/members/ledger';
import type { LedgerEntryRecord, MemberRecord, MemberTierRecord } from '../../shared/members/entities';
import type { OrdersStore } from '../../shared/orders/service';
import type { EarnCapsRecord, OrderRecord } from '../../shared/orders/entities';
import { DEFAULT_RULES, type ProgramRules } from '../../shared/program/schemas';

/**
 * The ledger, order and redemption stores in memory, for unit tests of the services: the same contract as the
 * table (a transaction applies all its steps or none; a step's failed condition raises the error
 * the table's step raises), without DynamoDB. Steps the store did not make (the outbox item, an
 * idempotency seal) are kept as they are, for the tests to look at.
 */

export interface MemoryOp {
  /** The error of a failed condition, checked before anything is applied. */
  check(): Error | undefined;
  apply(): void;
}

export class MemoryLedgerStore implements LedgerStore {
  readonly members = new Map<string, MemberRecord>();
  readonly entries: LedgerEntryRecord[] = [];
  readonly tiers = new Map<string, MemberTierRecord>();
  /** Every committed transaction's steps. */
  readonly committed: TransactStep[][] = [];
  rules: ProgramRules = DEFAULT_RULES;
  /** Runs once before the next transaction's conditions are checked: another writer getting there first. */
  interleave?: () => void;
  protected readonly ops = new WeakMap<object, MemoryOp>();

  memoryStep(op: MemoryOp, onConditionFailed?: TransactStep['onConditionFailed']): TransactStep {
    const marker = { ConditionCheck: { Key: {}, ConditionExpression: 'in memory' } } as unknown as TransactStep['op'];
    this.ops.set(marker, op);
    return { op: marker, ...(onConditionFailed ? { onConditionFailed } : {}) };
  }

  addMember(m: Partial<MemberRecord> & { id: string; workspaceId: string }): MemberRecord {
    const member: MemberRecord = {
      email: null,
      externalId: null,
      firstName: null,
      lastName: null,
      phone: null,
      birthDate: null,
      status: 'active',
      tier: 'member',
      balance: 0,
      pending: 0,
      lifetime: 0,
      orderCount: 0,
      customAttributes: {},
      tags: [],
      rev: 0,
      version: 1,
      searchText: '',
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      ...m,
    };
    this.members.set(member.id, member);
    return member;
  }

  async getMember(workspaceId: string, memberId: string): Promise<MemberRecord | undefined> {
    const m = this.members.get(memberId);
    return m && m.workspaceId === workspaceId ? structuredClone(m) : undefined;
  }

  async rulesOf(): Promise<ProgramRules> {
    return this.rules;
  }

  /** Real time: the memory store has no sandbox clock. */
  async clock(): Promise<Date> {
    return new Date();
  }

  async getMemberTier(_workspaceId: string, memberId: string): Promise<MemberTierRecord | undefined> {
    const t = this.tiers.get(memberId);
    return t && structuredClone(t);
  }

  memberTierStep(_workspaceId: string, record: MemberTierRecord): TransactStep {
    return this.memoryStep({ check: () => undefined, apply: () => void this.tiers.set(record.memberId, structuredClone(record)) });
  }

  balanceStep(current: MemberRecord, next: BalanceState, now: string, requireActive: boolean): TransactStep {
    return this.memoryStep({
      check: () => {
        const stored = this.members.get(current.id);
        const holds = stored && stored.rev === current.rev && (!requireActive || stored.status === 'active');
        return holds ? undefined : new MemberChanged(stored && structuredClone(stored));
      },
      apply: () => {
        const stored = this.members.get(current.id)!;
        Object.assign(stored, next, { rev: next.rev ?? current.rev + 1, updatedAt: now });
      },
    });
  }

  ledgerEntryStep(_workspaceId: string, entry: LedgerEntryRecord): TransactStep {
    return this.memoryStep({
      check: () => (this.entries.some((e) => e.memberId === entry.memberId && e.rev === entry.rev) ? new StaleRead('member') : undefined),
      apply: () => void this.entries.push(structuredClone(entry)),
    });
  }

  async findLedgerEntry(_workspaceId: string, memberId: string, entryId: string): Promise<LedgerEntryRecord | undefined> {
    const e = this.entries.find((x) => x.memberId === memberId && x.id === entryId);
    return e && structuredClone(e);
  }

  /** Marks an entry reversed, once (the table's condition: not reversed yet). */
  markReversedStep(_workspaceId: string, entry: LedgerEntryRecord, by: string, onReversed: () => Error): TransactStep {
    const stored = () => this.entries.find((x) => x.memberId === entry.memberId && x.id === entry.id);
    return this.memoryStep(
      { check: () => (stored()?.reversedBy ? onReversed() : undefined), apply: () => void Object.assign(stored()!, { reversedBy: by }) },
      onReversed,
    );
  }

  async transactWrite(steps: TransactStep[]): Promise<void> {
    const interleave = this.interleave;
    this.interleave = undefined;
    interleave?.();
    for (const s of steps) {
      const failed = this.ops.get(s.op)?.check();
      if (failed) throw s.onConditionFailed ? s.onConditionFailed() : failed;
    }
    for (const s of steps) this.ops.get(s.op)?.apply();
    this.committed.push(steps);
    for (const s of steps) s.onCommitted?.();
  }

  /** The events the committed transactions put in the outbox, by type. */
  eventTypes(): string[] {
    return this.committed.flatMap((steps) =>
      steps.flatMap((s) => {
        const item = (s.op as { Put?: { Item?: { entity?: string; events?: { type: string }[] } } }).Put?.Item;
        return item?.entity === 'outbox' ? item.events!.map((e) => e.type) : [];
      }),
    );
  }
}

export class MemoryOrdersStore implements OrdersStore {
  readonly orders = new Map<string, OrderRecord>();
  readonly refunds: RefundRecord[] = [];
  readonly stores = new Set<string>();

  constructor(readonly ledger = new MemoryLedgerStore()) {}

  private key = (workspaceId: string, externalOrderId: string) => `${workspaceId}/${externalOrderId}`;

  async getOrder(workspaceId: string, externalOrderId: string): Promise<OrderRecord | undefined> {
    const o = this.orders.get(this.key(workspaceId, externalOrderId));
    return o && structuredClone(o);
  }

  putOrderStep(order: OrderRecord): TransactStep {
    const key = this.key(order.workspaceId, order.externalOrderId);
    return this.ledger.memoryStep({
      check: () => (this.orders.has(key) ? new DuplicateOrder() : undefined),
      apply: () => void this.orders.set(key, structuredClone(order)),
    });
  }

  replaceOrderStep(next: OrderRecord, expectedVersion: number): TransactStep {
    const key = this.key(next.workspaceId, next.externalOrderId);
    return this.ledger.memoryStep({
      check: () => (this.orders.get(key)?.version === expectedVersion ? undefined : new StaleRead('order')),
      apply: () => void this.orders.set(key, structuredClone(next)),
    });
  }

  putRefundStep(_workspaceId: string, _externalOrderId: string, refund: RefundRecord): TransactStep {
    return this.ledger.memoryStep({ check: () => undefined, apply: () => void this.refunds.push(structuredClone(refund)) });
  }

  async memberIdByEmail(workspaceId: string, email: string): Promise<string | undefined> {
    return [...this.ledger.members.values()].find((m) => m.workspaceId === workspaceId && m.email === email)?.id;
  }

  async memberIdByExternalId(workspaceId: string, externalId: string): Promise<string | undefined> {
    return [...this.ledger.members.values()].find((m) => m.workspaceId === workspaceId && m.externalId === externalId)?.id;
  }

  async storeExists(workspaceId: string, storeId: string): Promise<boolean> {
    return this.stores.has(`${workspaceId}/${storeId}`);
  }

  readonly earnCaps = new Map<string, EarnCapsRecord>();

  async getEarnCaps(workspaceId: string, memberId: string): Promise<EarnCapsRecord | undefined> {
    const c = this.earnCaps.get(`${workspaceId}/${memberId}`);
    return c && structuredClone(c);
  }

  earnCapsStep(workspaceId: string, memberId: string, usage: Omit<EarnCapsRecord, 'version'>, readVersion: number | undefined): TransactStep {
    const key = `${workspaceId}/${memberId}`;
    return this.ledger.memoryStep({
      check: () => (this.earnCaps.get(key)?.version === readVersion ? undefined : new StaleRead('earning caps count')),
      apply: () => void this.earnCaps.set(key, { ...usage, version: (readVersion ?? 0) + 1 }),
    });
  }

  /** What every completed order is granted (the campaigns themselves are tested on the table). */
  readonly grants: Omit<PlannedGrant, 'steps'>[] = [];

  async campaignGrants(..._order: Parameters<OrdersStore['campaignGrants']>): Promise<PlannedGrant[]> {
    return this.grants.map((g) => ({ ...g, steps: [] }));
  }

  /** Coupons live on the table (voiding them is tested there): an order here voids none. */
  async voidCoupons() {
    return { steps: [], voided: [], used: [] };
  }
}

export class MemoryRedemptionStore implements RedemptionStore {
  readonly coupons = new Map<string, CouponRecord>();
  readonly lookups = new Map<string, CodeLookup>();
  readonly redeemedByPool = new Map<string, number>();

  constructor(readonly ledger = new MemoryLedgerStore()) {}

  getMember(workspaceId: string, memberId: string) {
    return this.ledger.getMember(workspaceId, memberId);
  }

  async getCoupon(workspaceId: string, couponId: string): Promise<CouponRecord | undefined> {
    const c = this.coupons.get(couponId);
    return c && c.workspaceId === workspaceId ? structuredClone(c) : undefined;
  }

  async getCodeLookup(_workspaceId: string, codeKey: string): Promise<CodeLookup | undefined> {
    return this.lookups.get(codeKey);
  }

  redeemStep(c: CouponRecord, at: string, redemption: CouponRecord['redemption']): TransactStep {
    return this.ledger.memoryStep(
      {
        check: () => {
          const stored = this.coupons.get(c.id);
          return stored?.status === 'issued' && stored.expiresKey > at ? undefined : new RedeemRefused();
        },
        apply: () => void Object.assign(this.coupons.get(c.id)!, { status: 'redeemed', redeemedAt: at, redemption }),
      },
      () => new RedeemRefused(),
    );
  }

  memberNotErasedStep(_workspaceId: string, memberId: string): TransactStep {
    const erased = () => Boolean(this.ledger.members.get(memberId)?.erasedAt);
    return this.ledger.memoryStep({ check: () => (erased() ? memberErased() : undefined), apply: () => undefined }, () => memberErased());
  }

  countRedemptionStep(_workspaceId: string, poolId: string): TransactStep {
    return this.ledger.memoryStep({ check: () => undefined, apply: () => void this.redeemedByPool.set(poolId, (this.redeemedByPool.get(poolId) ?? 0) + 1) });
  }

  transactWrite(steps: TransactStep[]): Promise<void> {
    return this.ledger.transactWrite(steps);
  }
}
