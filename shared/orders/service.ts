import * as members from '../members';
import * as repo from './repository';
import * as capsRepo from './caps-repository';
import { getStoreRecord as getStore } from '../stores';
import type { Page } from '../platform/data/queries';
import type { TransactStep } from '../platform/data/transactions';
import { event } from '../platform/events/outbox';
import { ID_PATTERN, newId } from '../platform/ids';
import { AppError, notFound, validationFailed } from '../platform/errors';
import {
  changePoints,
  isMemberId,
  tableLedgerStore,
  type ChangePlan,
  type LedgerStore,
  type PlannedGrant,
  type MemberRecord,
  reversalOf,
  claimOf,
  type PlannedReversal,
  NO_LOTS,
  bonusClaim,
} from '../members';
import { amountBand, fromMinor, toMinor } from '../platform/money';
import { earnSnapshot, type ProgramRules, type EarnCaps } from '../program';
import type { CreateOrderInput, Order, ReconcileOrderInput } from './schemas';
import { holdings, transition } from './points';
import { bonusesOf, bonusMoves, bonusReversals } from './bonus';
import { toOrder } from './types';
import type { EarnCapsRecord, OrderRecord } from './entities';
import { allowance, capsConfigured, counted, periodsAt, usageAt, type CapUsage } from './earn-caps';
import { orderAmounts, type AmountsInput } from './amounts';
import { earnAmountRules, earningAmount, linePointsOf, type OrderAmounts, type OrderLine } from './earning-amount';
import type { WriteOptions } from '../platform/data/write-options';
import { refuseCursor } from '../platform/data/cursor';
import { recordingTime } from './order-clock';

/** What an order tells the campaigns (the member's side comes from the member record). */
export interface OrderFacts {
  externalOrderId: string;
  orderId: string;
  total: number;
  currency: string;
  storeId: string | null;
  items: readonly { sku?: string; category?: string; brand?: string }[];
  occurredAt: string;
  /**
   * The points the lines `matches` picks earn under the order's rule (a category, brand or SKU
   * campaign rewards those lines, not the basket); undefined when a matching line has no price.
   */
  linePoints?: (matches: (line: OrderLine) => boolean) => number | undefined;
  /** The campaign points the member may still earn under the program's caps (absent: no cap). */
  campaignAllowance?: number;
  /** The program time the order was first recorded at: how late it was sent bounds the campaigns it earns. */
  recordedAt: string;
}

/**
 * The campaign rewards an order of `basePoints` earns its member, planned into the order's own
 * change. The campaigns sit above orders: they fill this port at the composition root (the
 * handlers pass `campaigns/hooks.ts`), so orders never import them.
 */
export type CampaignGrants = (workspaceId: string, member: MemberRecord, order: OrderFacts, basePoints: number, rules: ProgramRules) => Promise<PlannedGrant[]>;

/**
 * What the order service needs of the store: the orders and refunds it reads and writes, the
 * member lookups and stores it checks, and the ledger its points go through (one transaction).
 */
export interface OrdersTable {
  ledger: LedgerStore;
  getOrder(workspaceId: string, externalOrderId: string): Promise<OrderRecord | undefined>;
  putOrderStep(order: OrderRecord): TransactStep;
  replaceOrderStep(next: OrderRecord, expectedVersion: number): TransactStep;
  putRefundStep(workspaceId: string, externalOrderId: string, refund: repo.RefundRecord): TransactStep;
  memberIdByEmail(workspaceId: string, email: string): Promise<string | undefined>;
  memberIdByExternalId(workspaceId: string, externalId: string): Promise<string | undefined>;
  storeExists(workspaceId: string, storeId: string): Promise<boolean>;
  getEarnCaps(workspaceId: string, memberId: string): Promise<EarnCapsRecord | undefined>;
  earnCapsStep(workspaceId: string, memberId: string, usage: CapUsage, readVersion: number | undefined): TransactStep;
}

/**
 * The coupons campaigns granted on an order that is now fully refunded or cancelled: steps that void
 * the unused ones in the refund's transaction, and which were voided or already used. Coupons sit
 * above orders: filled at the composition root like `CampaignGrants`.
 */
export type CouponVoids = (workspaceId: string, couponIds: readonly string[]) => Promise<{ steps: TransactStep[]; voided: string[]; used: string[] }>;

/** What recording an order needs: the store, and the campaign rewards it earns (a required port: no caller records an order without them). */
export interface OrdersStore extends OrdersTable {
  campaignGrants: CampaignGrants;
  voidCoupons: CouponVoids;
}

/** The campaign coupons a change of `order` to `next` voids: on its full refund or cancellation, none before. */
async function couponsTakenBack(workspaceId: string, order: OrderRecord, next: OrderRecord, voids: CouponVoids | undefined) {
  const ended = (o: OrderRecord) => o.status === 'cancelled' || o.refundedMinor >= o.totalMinor;
  if (!voids || !order.coupons?.length || ended(order) || !ended(next)) return { steps: [], voided: [], used: [] };
  return voids(workspaceId, order.coupons);
}

/** The orders on the table (DynamoDB). */
export const tableOrdersStore: OrdersTable = {
  ledger: tableLedgerStore,
  getOrder: repo.getOrder,
  putOrderStep: repo.putOrderStep,
  replaceOrderStep: repo.replaceOrderStep,
  putRefundStep: repo.putRefundStep,
  memberIdByEmail: members.memberIdByEmail,
  memberIdByExternalId: members.memberIdByExternalId,
  storeExists: async (workspaceId, storeId) => (await getStore(workspaceId, storeId)) !== undefined,
  getEarnCaps: capsRepo.getEarnCaps,
  earnCapsStep: capsRepo.earnCapsStep,
};

export interface CreatedOrder {
  order: Order;
  duplicate: boolean;
}

/** Resolves `memberId` or the `member` lookup to a member of this workspace (404 otherwise). */
export async function resolveMember(workspaceId: string, ref: Pick<CreateOrderInput, 'memberId' | 'member'>, store: OrdersTable): Promise<MemberRecord> {
  const id = await memberIdOf(workspaceId, ref, store);
  const member = id ? await store.ledger.getMember(workspaceId, id) : undefined;
  if (!member) throw notFound('Member');
  return member;
}

async function memberIdOf(workspaceId: string, ref: Pick<CreateOrderInput, 'memberId' | 'member'>, store: OrdersTable): Promise<string | undefined> {
  if (ref.memberId) return isMemberId(ref.memberId) ? ref.memberId : undefined;
  if (ref.member?.email) return store.memberIdByEmail(workspaceId, ref.member.email);
  if (ref.member?.externalId) return store.memberIdByExternalId(workspaceId, ref.member.externalId);
  return undefined;
}

/**
 * `resolveMember` with the member's tier record read in the same request, when the store can: the
 * order's points change plans on both, and starts from them without a read of its own.
 */
async function resolveMemberWithTier(workspaceId: string, ref: Pick<CreateOrderInput, 'memberId' | 'member'>, store: OrdersTable) {
  const id = await memberIdOf(workspaceId, ref, store);
  const together = id && store.ledger.getMemberWithTier ? await store.ledger.getMemberWithTier(workspaceId, id) : undefined;
  const member = together ? together.member : id ? await store.ledger.getMember(workspaceId, id) : undefined;
  if (!member) throw notFound('Member');
  return { member, tier: together ? { record: together.tier } : undefined };
}

async function checkStore(workspaceId: string, storeId: string | undefined, store: OrdersTable): Promise<void> {
  if (storeId && !(ID_PATTERN('sto').test(storeId) && (await store.storeExists(workspaceId, storeId)))) throw notFound('Store');
}

function minorOf(amount: number, currency: string, field: string): number {
  const minor = toMinor(amount, currency);
  if (minor === undefined) throw validationFailed([{ in: 'body', field, message: `has more decimals than ${currency} allows` }]);
  return minor;
}

const orderSource = (o: OrderRecord, type: 'order' | 'refund' | 'reconciliation') => ({
  type,
  orderId: o.id,
  externalOrderId: o.externalOrderId,
  apiKeyId: null,
});

type NewOrder = Omit<OrderRecord, 'id' | 'earn' | 'earned' | 'reversed' | 'createdAt' | 'updatedAt' | 'version'>;

function newOrderFields(
  workspaceId: string,
  memberId: string,
  input: CreateOrderInput | ReconcileOrderInput,
  amounts: { totalMinor: number; refundedMinor: number },
  recordedAt: string,
): NewOrder {
  return {
    workspaceId,
    externalOrderId: input.externalOrderId,
    memberId,
    storeId: input.storeId ?? null,
    currency: input.currency,
    ...amounts,
    status: input.status,
    items: input.items ?? [],
    occurredAt: new Date(input.occurredAt).toISOString(),
    recordedAt,
  };
}

/** The plan that gives a new order's member what it holds (`order`: the record `withCampaignGrants` writes). */
function newOrderPlan<R>(
  fields: NewOrder,
  input: AmountsInput,
  rules: ProgramRules,
  now: string,
  result: (o: OrderRecord) => R,
  baseAllowance?: number,
): ChangePlan<R> & { order: OrderRecord; amounts: OrderAmounts } {
  const earn = earnSnapshot(rules, fields.currency);
  const amounts = orderAmounts(input, earnAmountRules(earn));
  const base = {
    ...fields,
    ...earningOf(amounts, earn),
    id: newId('ord'),
    earn,
    createdAt: now,
    updatedAt: now,
    version: 1,
    campaignsEvaluated: fields.status === 'completed',
  };
  // Under a cap the order earns what is left of it, and never more later (a correction cannot raise it).
  const capped = baseAllowance === undefined ? base : { ...base, earnCap: Math.min(holdings(base).earned, baseAllowance) };
  const held = holdings(capped);
  const order: OrderRecord = { ...capped, earned: held.earned, reversed: held.reversed };
  const delta = transition(null, order);
  return {
    delta,
    entry: { type: 'earn', reason: `Order ${order.externalOrderId}`, source: orderSource(order, 'order') },
    requireActive: delta.balance > 0 || delta.pending > 0,
    events: [event('order.created', { resource_id: order.id, member_ref: order.memberId, amount_band: amountBand(order.totalMinor, order.currency) })],
    result: () => result(order),
    order,
    amounts,
  };
}

/** The order's earning amount, kept on the record only when it is not the total (so a total-only order stores what it always did). */
function earningOf(amounts: OrderAmounts, earn: OrderRecord['earn']): Pick<OrderRecord, 'earningMinor'> {
  const earningMinor = earningAmount(amounts, earnAmountRules(earn));
  return earningMinor === amounts.totalMinor ? {} : { earningMinor };
}

/** The campaign rewards an order earns when it is completed, on `basePoints` (the points it gives now). */
async function completionGrants(
  workspaceId: string,
  member: MemberRecord,
  rules: ProgramRules,
  order: OrderRecord,
  amounts: OrderAmounts,
  basePoints: number,
  store: OrdersStore,
  caps: CapsState | undefined,
): Promise<PlannedGrant[]> {
  const facts: OrderFacts = {
    orderId: order.id,
    externalOrderId: order.externalOrderId,
    total: fromMinor(order.totalMinor, order.currency),
    currency: order.currency,
    storeId: order.storeId,
    items: order.items,
    occurredAt: order.occurredAt,
    linePoints: linePointsOf(amounts, order.currency, order.earn),
    ...(caps ? { campaignAllowance: allowance(caps.caps, caps.usage, 'campaign') } : {}),
    recordedAt: order.recordedAt ?? order.createdAt,
  };
  return store.campaignGrants(workspaceId, member, facts, basePoints, rules);
}

/** The member's counts against the program's earning caps, read in the change; absent while no cap is set (nothing read, nothing written). */
interface CapsState {
  caps: EarnCaps;
  usage: CapUsage;
  version: number | undefined;
}

async function capsState(workspaceId: string, memberId: string, rules: ProgramRules, at: Date, store: OrdersTable): Promise<CapsState | undefined> {
  if (!capsConfigured(rules.earn.caps)) return undefined;
  const stored = await store.getEarnCaps(workspaceId, memberId);
  return { caps: rules.earn.caps, usage: usageAt(stored, periodsAt(at.getTime(), rules.timeZone)), version: stored?.version };
}

const baseAllowance = (caps: CapsState | undefined) => (caps ? allowance(caps.caps, caps.usage, 'base') : undefined);

/** The change with what it gives counted against the caps: one conditional write in its own transaction. */
function withCapsCounted<R>(plan: ChangePlan<R>, caps: CapsState | undefined, base: number, order: OrderRecord, store: OrdersTable): ChangePlan<R> {
  if (!caps) return plan;
  const campaign = (plan.grants ?? []).reduce((sum, g) => sum + g.points, 0);
  const step = store.earnCapsStep(order.workspaceId, order.memberId, counted(caps.usage, base, campaign), caps.version);
  return { ...plan, steps: [...(plan.steps ?? []), step] };
}

/**
 * A new order with its campaign rewards (each its own ledger entry, kept on the order so its
 * refunds take them back) when it is recorded completed; a pending order earns them when a
 * reconciliation completes it. Under caps, its points and rewards are counted in the same change.
 */
async function withCampaignGrants<R>(
  workspaceId: string,
  member: MemberRecord,
  rules: ProgramRules,
  { order, amounts, ...plan }: ChangePlan<R> & { order: OrderRecord; amounts: OrderAmounts },
  store: OrdersStore,
  caps?: CapsState,
): Promise<ChangePlan<R>> {
  const grants = order.status === 'completed' ? await completionGrants(workspaceId, member, rules, order, amounts, order.earned, store, caps) : [];
  const { bonuses, reversals } = grantedOn(order, grants, plan.entry, 'adjustment');
  const coupons = grants.flatMap((g) => (g.reward ? [g.reward.id] : []));
  const recorded = { ...order, ...(bonuses.length ? { bonuses } : {}), ...(coupons.length ? { coupons } : {}) };
  const written = {
    ...plan,
    steps: [store.putOrderStep(recorded), ...(plan.steps ?? [])],
    ...(grants.length ? { grants } : {}),
    ...(reversals.length ? { reversals } : {}),
  };
  return withCapsCounted(written, caps, plan.delta.balance + plan.delta.pending, order, store);
}

const reversalsOf = (
  taken: readonly { campaignId: string; points: number }[],
  entry: Pick<ChangePlan<unknown>['entry'], 'reason' | 'source'>,
  type: PlannedReversal['type'],
): PlannedReversal[] => taken.map((r) => ({ points: r.points, type, reason: entry.reason ?? '', source: { ...entry.source, campaignId: r.campaignId } }));

/**
 * The campaign points granted on an order as it completes, evaluated on all it earned: what its
 * refunds so far take back of them goes back in the same change, as if they had been granted
 * before the refunds (a pending order refunded, then completed, keeps only the share that stands).
 */
function grantedOn(
  order: OrderRecord,
  grants: readonly PlannedGrant[],
  entry: Pick<ChangePlan<unknown>['entry'], 'reason' | 'source'>,
  type: PlannedReversal['type'],
) {
  const { bonuses, reversals } = bonusReversals(bonusesOf(grants), order);
  return { bonuses, reversals: reversalsOf(reversals, entry, type) };
}

/**
 * What a change of an order to `next` does to its campaign points (`bonusMoves`): the plan's
 * reversals, the grants it gives again (an order back to pending that completes: not counted
 * against the campaign again), the move of pending points, and the order as it then stands.
 */
function bonusTakeBack(
  order: OrderRecord,
  next: OrderRecord,
  entry: Pick<ChangePlan<unknown>['entry'], 'reason' | 'source'>,
  type: PlannedReversal['type'],
  lots: MemberRecord['lots'],
) {
  const waiting = new Set((lots?.pending ?? []).map((p) => p.orderId));
  const { bonuses, reversals, regrants, pending } = bonusMoves(order.bonuses, order, next, (c) => waiting.has(bonusClaim(order.id, c)));
  const source = (campaignId: string) => ({ ...entry.source, campaignId });
  return {
    next: bonuses.length ? { ...next, bonuses } : next,
    reversals: reversalsOf(reversals, entry, type),
    regrants: regrants.map(
      (r): PlannedGrant => ({
        campaignId: r.campaignId,
        points: r.points,
        reason: entry.reason ?? '',
        source: { ...source(r.campaignId), type: 'campaign' },
        steps: [],
        announced: r.announced,
      }),
    ),
    pending,
  };
}

/**
 * Points a reversal takes back of an order's campaign shares, less what had expired (never taken
 * twice), and what leaves pending with a pending order's own (one that completed once).
 */
function bonusReversedOf(member: MemberRecord, taken: { reversals: readonly PlannedReversal[]; pending: number }): number {
  const lots = member.lots ?? NO_LOTS;
  return taken.reversals.reduce((n, r) => n + r.points - reversalOf(lots, claimOf(r.source)!, r.points).absorbed, 0) - taken.pending;
}

/**
 * Records an order and awards its points in the same transaction. The externalOrderId is unique
 * per workspace: a repeat (even a concurrent one) awards nothing and answers the recorded order.
 */
export async function createOrder(
  workspaceId: string,
  input: CreateOrderInput,
  opts: WriteOptions<CreatedOrder>,
  now: Date,
  store: OrdersStore,
): Promise<CreatedOrder> {
  // No read of the order first: the conditional put of the new order is the duplicate check.
  const { member, tier } = await resolveMemberWithTier(workspaceId, input, store);
  const memberId = member.id;
  await checkStore(workspaceId, input.storeId, store);
  const totalMinor = minorOf(input.total, input.currency, 'total');
  const recordedAt = recordingTime(input.occurredAt, await store.ledger.clock(workspaceId));
  try {
    return await changePoints({
      workspaceId,
      memberId,
      plan: async (current: MemberRecord, rules: ProgramRules) => {
        const caps = await capsState(workspaceId, memberId, rules, now, store);
        const recorded = newOrderPlan(
          newOrderFields(workspaceId, memberId, input, { totalMinor, refundedMinor: 0 }, recordedAt),
          input,
          rules,
          now.toISOString(),
          (order) => ({ order: toOrder(order), duplicate: false }),
          baseAllowance(caps),
        );
        return { plan: await withCampaignGrants(workspaceId, current, rules, recorded, store, caps) };
      },
      write: opts,
      preloaded: member,
      preloadedTier: tier,
      store: store.ledger,
    });
  } catch (err) {
    // Whatever stopped the write (the duplicate itself, or e.g. a member unenrolled since), a
    // recorded order with this id is the answer.
    if (!(err instanceof AppError) || err.status !== 409) throw err;
    const recorded = await store.getOrder(workspaceId, input.externalOrderId);
    if (!recorded) throw err;
    return { order: toOrder(recorded), duplicate: true };
  }
}

export interface RefundResult {
  order: Order;
  refund: {
    id: string;
    amount: number;
    pointsReversed: number;
    basePointsReversed: number;
    bonusPointsReversed: number;
    coupons: { voided: string[]; used: string[] };
    reason: string | null;
    createdAt: string;
  };
}

/** What a refund of `amount` (default: all that is left) refunds of the order, in minor units; refused beyond what is left. */
function refundAmount(order: OrderRecord, amount: number | undefined): number {
  if (order.status === 'cancelled') throw new AppError('CONFLICT', 'The order is cancelled; there is nothing to refund');
  const remaining = order.totalMinor - order.refundedMinor;
  const amountMinor = amount === undefined ? remaining : minorOf(amount, order.currency, 'amount');
  if (amountMinor <= 0 && remaining > 0) throw validationFailed([{ in: 'body', field: 'amount', message: 'must be greater than 0' }]);
  if (amountMinor > remaining || remaining === 0) {
    throw new AppError('REFUND_EXCEEDS_REMAINING', `Only ${fromMinor(remaining, order.currency)} ${order.currency} of this order is left to refund`);
  }
  return amountMinor;
}

/**
 * Refunds part or all of what is left and takes back the proportional points, in one transaction
 * with the order, the refund record and the event. Points the member already spent are still
 * taken back: the balance may go negative; points of the order that already expired are not taken
 * a second time (see docs/decisions/).
 */
export async function refundOrder(
  workspaceId: string,
  externalOrderId: string,
  input: { amount?: number; reason?: string },
  opts: WriteOptions<RefundResult> = {},
  now = new Date(),
  store: OrdersTable & Partial<Pick<OrdersStore, 'voidCoupons'>>,
): Promise<RefundResult> {
  const first = await store.getOrder(workspaceId, externalOrderId);
  if (!first) throw notFound('Order');
  // The first attempt plans on the order just read (the write is conditional on its version);
  // a retry reads it again.
  let preread: OrderRecord | undefined = first;
  return changePoints({
    workspaceId,
    memberId: first.memberId,
    plan: async (member) => {
      const order = preread ?? (await store.getOrder(workspaceId, externalOrderId))!;
      preread = undefined;
      const amountMinor = refundAmount(order, input.amount);
      const at = now.toISOString();
      const refunded = { ...order, refundedMinor: order.refundedMinor + amountMinor };
      const held = holdings(refunded);
      const moved: OrderRecord = { ...refunded, earned: held.earned, reversed: held.reversed, updatedAt: at, version: order.version + 1 };
      const delta = transition(order, moved);
      const entry = {
        type: 'refund_reversal' as const,
        reason: input.reason ?? `Refund of order ${order.externalOrderId}`,
        source: orderSource(order, 'refund'),
      };
      // The campaign points granted on the order go back in the same proportion, in the same transaction.
      const { next, ...taken } = bonusTakeBack(order, moved, entry, 'refund_reversal', member.lots);
      // The ledger takes the reversal from the order's waiting points, then its expired ones (not again), then the balance.
      const { absorbed } = reversalOf(member.lots ?? NO_LOTS, order.id, -delta.balance);
      const base = -(delta.balance + delta.pending) - absorbed;
      const bonus = bonusReversedOf(member, taken);
      const refund: repo.RefundRecord = {
        id: newId('rfd'),
        amountMinor,
        pointsReversed: base + bonus,
        basePointsReversed: base,
        bonusPointsReversed: bonus,
        reason: input.reason ?? null,
        createdAt: at,
      };
      // The refund that ends the order voids the coupons campaigns granted on it, if unused.
      const coupons = await couponsTakenBack(workspaceId, order, next, store.voidCoupons);
      const reversedNow = {
        base_points_reversed: base,
        bonus_points_reversed: bonus,
        ...(coupons.voided.length ? { coupons_voided: coupons.voided } : {}),
        ...(coupons.used.length ? { coupons_used: coupons.used } : {}),
      };
      return {
        plan: {
          delta: { ...delta, pending: delta.pending + taken.pending },
          entry,
          reversals: taken.reversals,
          steps: [store.replaceOrderStep(next, order.version), store.putRefundStep(workspaceId, order.externalOrderId, refund), ...coupons.steps],
          events: [
            event('order.refunded', {
              resource_id: order.id,
              member_ref: order.memberId,
              amount_band: amountBand(amountMinor, order.currency),
              ...reversedNow,
            }),
          ],
          result: () => ({
            order: toOrder(next),
            refund: {
              id: refund.id,
              amount: fromMinor(amountMinor, order.currency),
              pointsReversed: refund.pointsReversed,
              basePointsReversed: base,
              bonusPointsReversed: bonus,
              coupons: { voided: coupons.voided, used: coupons.used },
              reason: refund.reason,
              createdAt: at,
            },
          }),
        },
      };
    },
    write: opts,
    store: store.ledger,
  });
}

export type ReconcileOutcome = { outcome: 'created' | 'updated' | 'unchanged'; orderId: string; pointsDelta: number };

/** What a reconciliation does to an order it finds: the correction of total, status and refunds, or nothing when they agree. */
async function correctionPlan(
  workspaceId: string,
  c: {
    member: MemberRecord;
    rules: ProgramRules;
    existing: OrderRecord;
    input: ReconcileOrderInput;
    totalMinor: number;
    refundedInput: number | undefined;
    at: string;
  },
  store: OrdersStore,
): Promise<{ done: ReconcileOutcome } | { plan: ChangePlan<ReconcileOutcome> }> {
  const { member, rules, existing, input, totalMinor, refundedInput, at } = c;
  if (existing.memberId !== member.id) throw new AppError('CONFLICT', 'The order belongs to another member; an order cannot change member');
  if (existing.currency !== input.currency) throw new AppError('CONFLICT', `The order is in ${existing.currency}; its currency cannot change`);
  const refundedMinor = refundedInput ?? existing.refundedMinor;
  if (refundedMinor > totalMinor) throw validationFailed([{ in: 'body', field: 'total', message: 'is below what was already refunded' }]);
  if (existing.totalMinor === totalMinor && existing.status === input.status && existing.refundedMinor === refundedMinor) {
    return { done: { outcome: 'unchanged', orderId: existing.id, pointsDelta: 0 } };
  }
  // The earning amount follows the corrected body under the rule the order was recorded with.
  const amounts = orderAmounts(input, earnAmountRules(existing.earn));
  const { earningMinor: _previous, ...kept } = existing;
  const corrected = { ...kept, ...earningOf(amounts, existing.earn), totalMinor, status: input.status, refundedMinor };
  const held = holdings(corrected);
  // Evaluated once: an order completed before (or recorded completed) earns no rewards again.
  const evaluated = existing.campaignsEvaluated === true || existing.status === 'completed';
  const completes = !evaluated && input.status === 'completed';
  const moved: OrderRecord = {
    ...corrected,
    earned: held.earned,
    reversed: held.reversed,
    updatedAt: at,
    version: existing.version + 1,
    campaignsEvaluated: evaluated || completes,
  };
  const delta = transition(existing, moved);
  const entry = {
    type: delta.balance > 0 ? ('earn' as const) : ('adjustment' as const),
    reason: `Reconciliation of order ${existing.externalOrderId}`,
    source: orderSource(existing, 'reconciliation'),
  };
  const caps = completes ? await capsState(workspaceId, member.id, rules, new Date(at), store) : undefined;
  const grants = completes ? await completionGrants(workspaceId, member, rules, moved, amounts, held.earned, store, caps) : [];
  // A refund or cancellation reconciled takes back the campaign points as the refund route does
  // (an order completed now has none yet: its rewards are evaluated once); an order back to pending
  // takes them to pending with its own, and its completion gives them back (`bonusMoves`).
  const taken = bonusTakeBack(existing, moved, entry, 'adjustment', member.lots);
  const granted = grantedOn(moved, grants, entry, 'adjustment');
  const next = grants.length ? { ...taken.next, bonuses: granted.bonuses } : taken.next;
  const coupons = await couponsTakenBack(workspaceId, existing, next, store.voidCoupons);
  const refundedMore = refundedMinor > existing.refundedMinor;
  // A correction counts only the rewards of a completion: the order's own points were counted when it was recorded.
  return {
    plan: withCapsCounted(
      {
        delta: { ...delta, pending: delta.pending + taken.pending },
        entry,
        reversals: [...taken.reversals, ...granted.reversals],
        requireActive: delta.balance > 0 || delta.pending > 0,
        steps: [store.replaceOrderStep(next, existing.version), ...coupons.steps],
        events: refundedMore
          ? [
              event('order.refunded', {
                resource_id: existing.id,
                member_ref: member.id,
                amount_band: amountBand(refundedMinor - existing.refundedMinor, existing.currency),
              }),
            ]
          : [],
        result: () => ({ outcome: 'updated', orderId: existing.id, pointsDelta: delta.balance + delta.pending }),
        ...(grants.length + taken.regrants.length ? { grants: [...grants, ...taken.regrants] } : {}),
      },
      caps,
      0,
      next,
      store,
    ),
  };
}

/**
 * Brings one order in line with the merchant's system of record: created if missing, corrected if
 * its total, status or refunded total differ (only the difference in points moves), else untouched.
 */
export async function reconcileOrder(workspaceId: string, input: ReconcileOrderInput, now: Date, store: OrdersStore): Promise<ReconcileOutcome> {
  const memberId = (await resolveMember(workspaceId, input, store)).id;
  await checkStore(workspaceId, input.storeId, store);
  const totalMinor = minorOf(input.total, input.currency, 'total');
  const refundedInput = input.refundedTotal === undefined ? undefined : minorOf(input.refundedTotal, input.currency, 'refundedTotal');
  if (refundedInput !== undefined && refundedInput > totalMinor) {
    throw validationFailed([{ in: 'body', field: 'refundedTotal', message: 'cannot exceed total' }]);
  }
  const recordedAt = recordingTime(input.occurredAt, await store.ledger.clock(workspaceId));
  const at = now.toISOString();
  const attempt = () =>
    changePoints<ReconcileOutcome>({
      workspaceId,
      memberId,
      plan: async (member, rules) => {
        const existing = await store.getOrder(workspaceId, input.externalOrderId);
        if (!existing) {
          const caps = await capsState(workspaceId, memberId, rules, now, store);
          const recorded = newOrderPlan(
            newOrderFields(workspaceId, memberId, input, { totalMinor, refundedMinor: refundedInput ?? 0 }, recordedAt),
            input,
            rules,
            at,
            (order) => ({ outcome: 'created' as const, orderId: order.id, pointsDelta: 0 }),
            baseAllowance(caps),
          );
          const plan = await withCampaignGrants(
            workspaceId,
            member,
            rules,
            { ...recorded, entry: { ...recorded.entry, source: { ...recorded.entry.source, type: 'reconciliation' } } },
            store,
            caps,
          );
          const delta = plan.delta;
          return { plan: { ...plan, result: (o) => ({ ...plan.result(o), pointsDelta: delta.balance + delta.pending }) } };
        }
        return correctionPlan(workspaceId, { member, rules, existing, input, totalMinor, refundedInput, at }, store);
      },
      store: store.ledger,
    });
  try {
    return await attempt();
  } catch (err) {
    // Created concurrently by another request: reconcile against it.
    if (err instanceof repo.DuplicateOrder) return attempt();
    throw err;
  }
}

export async function listOrders(
  workspaceId: string,
  q: { limit: number; cursor?: string; memberId?: string; storeId?: string; status?: string; from?: string; to?: string },
): Promise<Page<Order>> {
  if (q.memberId && !isMemberId(q.memberId)) {
    refuseCursor(q.cursor);
    return { items: [] };
  }
  const norm = (t?: string) => (t ? new Date(t).toISOString() : undefined);
  const page = await repo.listOrders(workspaceId, { ...q, from: norm(q.from), to: norm(q.to) }, q.limit, q.cursor);
  return { ...page, items: page.items.map(toOrder) };
}
