import * as members from '../members';
import { couponSettings } from '../platform/config';
import * as repo from './repository';
import type { OutboxEvent } from '../platform/events/registry';
import { inKeyOrder, StaleRead, withOptimisticRetry } from '../platform/data/concurrency';
import type { Page } from '../platform/data/queries';
import type { TransactStep } from '../platform/data/transactions';
import { transactWrite } from './repository';
import { refuseOversized } from '../platform/data/stored-size';
import { event, publish } from '../platform/events/outbox';
import { ID_PATTERN, newId } from '../platform/ids';
import { AppError, conflict, notFound } from '../platform/errors';
import { changePoints, isMemberId, loadMember, loadWritableMember, memberThrough, NO_DELTA, tableLedgerStore, writable, type LedgerStore } from '../members';
import { codeKey, generateCode, isCodeShaped } from './codes';
import type { Coupon, CouponPool, CreatePoolInput, IssueCouponInput, RedeemInput } from './schemas';
import type { CodeLookup, CouponRecord, CouponStatus, PoolRecord } from './entities';
import { NEVER, poolStatus, toCoupon, toPool } from './types';
import { sealSteps, type WriteOptions } from '../platform/data/write-options';
import { refuseCursor } from '../platform/data/cursor';

export const isPoolId = (id: string) => ID_PATTERN('cpl').test(id);
export const isCouponId = (id: string) => ID_PATTERN('cpn').test(id);

const iso = (t: string | undefined) => (t ? new Date(t).toISOString() : null);

// ---------------------------------------------------------------------------------------------
// Pools
// ---------------------------------------------------------------------------------------------

/**
 * Creates a pool. A list pool first reserves each uploaded code in the workspace's code lookups
 * (conditional puts, 99 codes and their list chunk per transaction), so a code can never belong to two pools or clash
 * with a generated code; the pool item (with the idempotent answer) is written last, so the pool
 * exists only once all its codes are in place. If a code is taken, what was reserved is released
 * and the answer is 409.
 */
export async function createPool(workspaceId: string, input: CreatePoolInput, opts: WriteOptions<CouponPool> = {}, now = new Date()): Promise<CouponPool> {
  const at = now.toISOString();
  const list = input.codeConfig.mode === 'list' ? input.codeConfig.codes : null;
  const pool: PoolRecord = {
    id: newId('cpl', now.getTime()),
    workspaceId,
    name: input.name,
    discount: input.discount,
    codeConfig:
      input.codeConfig.mode === 'list'
        ? { mode: 'list', count: input.codeConfig.codes.length }
        : { mode: 'generated', prefix: input.codeConfig.prefix ?? null, length: input.codeConfig.length },
    stock: list ? list.length : input.stock!,
    issued: 0,
    redeemed: 0,
    remaining: list ? list.length : input.stock!,
    validFrom: iso(input.validFrom),
    validUntil: iso(input.validUntil),
    perMemberLimit: input.perMemberLimit ?? null,
    pointsCost: input.pointsCost ?? null,
    active: input.active,
    createdAt: at,
  };
  refuseOversized(pool, 'couponPool');
  const answer = toPool(pool, now);
  const reserved = list ? await reserveCodes(workspaceId, pool.id, list) : [];
  try {
    await transactWrite([repo.putPoolStep(pool), ...sealSteps(opts, answer)]);
  } catch (err) {
    if (reserved.length) await repo.releaseListChunks(workspaceId, pool.id, reserved);
    throw err;
  }
  return answer;
}

type Chunk = { chunk: number; codeKeys: string[] };

async function reserveCodes(workspaceId: string, poolId: string, codes: string[]): Promise<Chunk[]> {
  const chunks: { chunk: number; codes: { code: string; codeKey: string }[] }[] = [];
  for (let i = 0; i < codes.length; i += repo.CODES_PER_CHUNK) {
    chunks.push({ chunk: chunks.length, codes: codes.slice(i, i + repo.CODES_PER_CHUNK).map((code) => ({ code, codeKey: codeKey(code) })) });
  }
  const done: Chunk[] = [];
  let failure: unknown;
  let next = 0;
  const worker = async () => {
    while (failure === undefined && next < chunks.length) {
      const c = chunks[next++]!;
      try {
        await withOptimisticRetry(() => transactWrite(repo.reserveListChunkSteps(workspaceId, poolId, c.chunk, c.codes)));
        done.push({ chunk: c.chunk, codeKeys: c.codes.map((x) => x.codeKey) });
      } catch (err) {
        failure ??= err;
      }
    }
  };
  // Reservation transactions (one list chunk each) in flight at once.
  await Promise.all(Array.from({ length: Math.min(couponSettings().reserveParallelism, chunks.length) }, worker));
  if (failure !== undefined) {
    await repo.releaseListChunks(workspaceId, poolId, done);
    throw failure;
  }
  return done;
}

export async function listPools(workspaceId: string, q: { limit: number; cursor?: string }, now = new Date()): Promise<Page<CouponPool>> {
  const page = await repo.listPools(workspaceId, q.limit, q.cursor);
  return { ...page, items: page.items.map((p) => toPool(p, now)) };
}

// ---------------------------------------------------------------------------------------------
// Issue
// ---------------------------------------------------------------------------------------------

function assertIssuable(pool: PoolRecord, now: Date): void {
  const status = poolStatus(pool, now);
  if (status === 'inactive') throw new AppError('POOL_NOT_ACTIVE', 'The coupon pool is switched off');
  if (status === 'scheduled') throw new AppError('POOL_NOT_ACTIVE', `The coupon pool issues from ${pool.validFrom}`);
  if (status === 'expired') throw new AppError('POOL_NOT_ACTIVE', `The coupon pool stopped issuing at ${pool.validUntil}`);
  if (status === 'exhausted') throw new AppError('POOL_EXHAUSTED', 'The coupon pool has no stock left');
}

export interface IssueDraft {
  coupon: CouponRecord;
  steps: TransactStep[];
  events: OutboxEvent[];
}

/**
 * The items of one issue, planned on a fresh read of the pool: the stock taken (conditional), the
 * member's count for the limit (conditional), the code lookup (new, or the reserved list code bound
 * to the coupon) and the coupon itself.
 */
async function draftIssue(pool: PoolRecord, memberId: string, now: Date, terms?: CouponTerms): Promise<IssueDraft> {
  const workspaceId = pool.workspaceId;
  const couponId = newId('cpn', now.getTime());
  let code: string;
  let codeStep: TransactStep;
  let stockStep: TransactStep;
  if (pool.codeConfig.mode === 'list') {
    // The pool's `issued` counter is the index of the next code; taking the stock reserves it.
    const seq = pool.issued;
    const listed = await repo.getListCode(workspaceId, pool.id, seq);
    if (listed === undefined) throw new Error(`coupon pool ${pool.id} has no code at slot ${seq}`);
    code = listed;
    codeStep = repo.bindListCodeStep(workspaceId, codeKey(code), { poolId: pool.id, couponId, memberId });
    stockStep = repo.takeStockStep(pool, seq);
  } else {
    code = generateCode(pool.codeConfig.prefix, pool.codeConfig.length);
    codeStep = repo.newCodeStep(workspaceId, codeKey(code), { poolId: pool.id, couponId, memberId });
    stockStep = repo.takeStockStep(pool);
  }
  const coupon: CouponRecord = {
    id: couponId,
    workspaceId,
    poolId: pool.id,
    memberId,
    code,
    status: 'issued',
    discount: pool.discount,
    validFrom: pool.validFrom,
    validUntil: terms ? terms.validUntil : pool.validUntil,
    expiresKey: (terms ? terms.validUntil : pool.validUntil) ?? NEVER,
    pointsCost: terms ? terms.pointsCost : (pool.pointsCost ?? 0),
    issuedAt: now.toISOString(),
    redeemedAt: null,
    redemption: null,
  };
  return {
    coupon,
    steps: [
      stockStep,
      ...(pool.perMemberLimit ? [repo.memberLimitStep(workspaceId, pool.id, memberId, pool.perMemberLimit)] : []),
      codeStep,
      repo.putCouponStep(coupon),
    ],
    events: [event('coupon.issued', { resource_id: coupon.id, member_ref: memberId, pool_id: pool.id })],
  };
}

/** What the issuer of a coupon sets instead of its pool: when it expires and the points it cost. */
export interface CouponTerms {
  validUntil: string | null;
  pointsCost: number;
}

/**
 * A reward's coupon for a member, as items of the redemption that draws it (the redemption's own
 * transaction, which takes the points itself): planned on a fresh read of the pool, refused as an
 * issue would be (404 for a pool that is gone, POOL_NOT_ACTIVE, POOL_EXHAUSTED, and at the commit
 * the pool's stock and per-member limit). `terms` gets the pool's end and sets the coupon's own.
 */
export async function rewardCoupon(
  workspaceId: string,
  poolId: string,
  memberId: string,
  now: Date,
  terms: (poolUntil: string | null) => CouponTerms,
): Promise<{ coupon: Coupon; draft: IssueDraft }> {
  const pool = isPoolId(poolId) ? await repo.getPool(workspaceId, poolId) : undefined;
  if (!pool) throw notFound('Coupon pool');
  assertIssuable(pool, now);
  const draft = await draftIssue(pool, memberId, now, terms(pool.validUntil));
  return { coupon: toCoupon(draft.coupon, now), draft };
}

/**
 * A campaign's coupon for a member, as items of the change that grants it (the trigger's own
 * transaction): planned on a fresh read of the pool, or null when the pool cannot issue to the
 * member now (switched off, outside its dates, no stock or code left, the member at its limit), so
 * the reward is skipped and the trigger's change goes on. A campaign's coupon costs no points. Any
 * of its conditions failing at the commit (another issue took the last code) makes the whole change
 * plan again, and the fresh read then skips the coupon.
 */
export async function campaignCoupon(workspaceId: string, poolId: string, memberId: string, now: Date): Promise<{ coupon: Coupon; draft: IssueDraft } | null> {
  const pool = isPoolId(poolId) ? await repo.getPool(workspaceId, poolId) : undefined;
  if (!pool || poolStatus(pool, now) !== 'active') return null;
  if (pool.perMemberLimit && (await repo.memberCouponCount(workspaceId, poolId, memberId)) >= pool.perMemberLimit) return null;
  const draft = await draftIssue(pool, memberId, now);
  const steps = draft.steps.map((step): TransactStep => ({ ...step, onConditionFailed: () => new StaleRead('coupon pool') }));
  return { coupon: toCoupon(draft.coupon, now), draft: { ...draft, steps } };
}

/**
 * Issues one coupon of a pool to a member, in ONE transaction: stock (never below zero), the
 * per-member limit, the code, the coupon, the `coupon.issued` event and the idempotent answer, and,
 * when the pool has a points cost, the member's deduction and ledger entry (through `changePoints`,
 * refused with INSUFFICIENT_POINTS when the balance is short). A lost race on a read (the member's
 * ledger revision, a list pool's next code, a generated code that exists) re-reads and re-plans.
 */
export function issueCoupon(
  workspaceId: string,
  input: IssueCouponInput,
  actor: { apiKeyId: string | null },
  opts: WriteOptions<Coupon> = {},
  clock: () => Date = () => new Date(),
): Promise<Coupon> {
  // Every issue of a pool updates the pool's stock item (and a list pool's next-code counter): the
  // issues of one pool in this process take turns instead of racing each other for it, so only
  // writers in other processes can make an issue re-read.
  return inKeyOrder(`couponPool:${workspaceId}/${input.poolId}`, () => issueInTurn(workspaceId, input, actor, opts, clock));
}

async function issueInTurn(
  workspaceId: string,
  input: IssueCouponInput,
  actor: { apiKeyId: string | null },
  opts: WriteOptions<Coupon>,
  clock: () => Date,
): Promise<Coupon> {
  if (!isPoolId(input.poolId)) throw notFound('Coupon pool');
  if (!isMemberId(input.memberId)) throw notFound('Member');
  const first = await repo.getPool(workspaceId, input.poolId);
  const issuable = first !== undefined && poolStatus(first, clock()) === 'active';
  // The member is read only when its balance is needed (a points cost) or the answer is a refusal
  // (the member's 404 or 409 comes before the pool's); otherwise the issue's transaction checks
  // that it exists and is enrolled.
  const member = first?.pointsCost || !issuable ? await loadWritableMember(workspaceId, input.memberId) : undefined;
  if (!first) throw notFound('Coupon pool');
  if (member && member.status !== 'active') throw conflict('The member is unenrolled; coupons can no longer be issued to it');
  assertIssuable(first, clock());

  let preread: PoolRecord | undefined = first;
  const freshPool = async () => {
    const pool = preread ?? (await repo.getPool(workspaceId, input.poolId));
    preread = undefined;
    if (!pool) throw notFound('Coupon pool');
    return pool;
  };

  if (member && first.pointsCost) {
    return changePoints({
      store: tableLedgerStore,
      workspaceId,
      memberId: member.id,
      plan: async (m) => {
        if (m.status !== 'active') throw conflict('The member is unenrolled; coupons can no longer be issued to it');
        const now = clock();
        const pool = await freshPool();
        assertIssuable(pool, now);
        const cost = pool.pointsCost ?? 0;
        const draft = await draftIssue(pool, m.id, now);
        const coupon = toCoupon(draft.coupon, now);
        return {
          plan: {
            delta: { ...NO_DELTA, balance: -cost },
            entry: {
              type: 'deduct',
              reason: `Coupon ${coupon.id} from pool ${pool.id}`,
              // A redemption: the points aggregates count it apart from support deductions.
              source: { type: 'coupon', orderId: null, externalOrderId: null, apiKeyId: actor.apiKeyId },
            },
            requireNonNegative: true,
            requireActive: true,
            steps: draft.steps,
            events: draft.events,
            result: () => coupon,
          },
        };
      },
      write: opts,
      preloaded: member,
    });
  }

  return withOptimisticRetry(async () => {
    const now = clock();
    const pool = await freshPool();
    assertIssuable(pool, now);
    const draft = await draftIssue(pool, input.memberId, now);
    const coupon = toCoupon(draft.coupon, now);
    await transactWrite([
      repo.memberActiveStep(workspaceId, input.memberId),
      ...draft.steps,
      ...publish(workspaceId, draft.events),
      ...sealSteps(opts, coupon),
    ]);
    return coupon;
  });
}

// ---------------------------------------------------------------------------------------------
// Redeem
// ---------------------------------------------------------------------------------------------

/**
 * What redeeming needs of the store: the coupon (by id, or through its code's lookup), the member
 * check, the redeem step (conditional on `status = issued` and not expired, failing with
 * `RedeemRefused`), the pool's counter and one transaction.
 */
export interface RedemptionStore {
  getMember: LedgerStore['getMember'];
  getCoupon(workspaceId: string, couponId: string): Promise<CouponRecord | undefined>;
  getCodeLookup(workspaceId: string, codeKey: string): Promise<CodeLookup | undefined>;
  redeemStep(c: CouponRecord, at: string, redemption: CouponRecord['redemption']): TransactStep;
  /** The member item's condition that it was not erased (a redeem racing the erasure is refused). */
  memberNotErasedStep(workspaceId: string, memberId: string): TransactStep;
  countRedemptionStep(workspaceId: string, poolId: string): TransactStep;
  transactWrite(steps: TransactStep[]): Promise<void>;
}

/** Redemptions on the table (DynamoDB). */
export const tableRedemptionStore: RedemptionStore = {
  getMember: tableLedgerStore.getMember,
  getCoupon: repo.getCoupon,
  getCodeLookup: repo.getCodeLookup,
  redeemStep: repo.redeemStep,
  memberNotErasedStep: members.memberNotErasedStep,
  countRedemptionStep: repo.countRedemptionStep,
  transactWrite: (steps) => transactWrite(steps),
};

const alreadyRedeemed = (c: CouponRecord) => new AppError('COUPON_ALREADY_REDEEMED', `The coupon was already redeemed at ${c.redeemedAt}`);
const expired = (c: CouponRecord) => new AppError('COUPON_EXPIRED', `The coupon expired at ${c.validUntil}`);
const voided = () => new AppError('CONFLICT', 'The coupon was voided: the order that earned it was refunded or cancelled');

/**
 * The coupons campaigns granted on an order that was fully refunded or cancelled: an unused one is
 * voided in the refund's transaction (its condition: still unused; a redemption that wins the race
 * makes the refund read again and report it used), a redeemed one is reported used.
 */
export async function voidOrderCoupons(
  workspaceId: string,
  couponIds: readonly string[],
  now = new Date(),
): Promise<{ steps: TransactStep[]; voided: string[]; used: string[] }> {
  const coupons = await Promise.all(couponIds.map((id) => repo.getCoupon(workspaceId, id)));
  const found = coupons.filter((c): c is CouponRecord => c !== undefined);
  const open = found.filter((c) => c.status === 'issued');
  return {
    steps: open.map((c) => repo.voidStep(c, now.toISOString())),
    voided: open.map((c) => c.id),
    used: found.filter((c) => c.status === 'redeemed').map((c) => c.id),
  };
}

/**
 * The void of one coupon (a reward's, taken back), as a step of the caller's transaction on the
 * condition that it is still unused: `used` when it was redeemed, null when there is nothing to
 * void (gone, or voided already). A redemption that wins the race makes the caller read again.
 */
export async function couponVoid(workspaceId: string, couponId: string, now: Date): Promise<TransactStep | 'used' | null> {
  const coupon = await repo.getCoupon(workspaceId, couponId);
  if (!coupon || coupon.status === 'voided') return null;
  if (coupon.status === 'redeemed') return 'used';
  return repo.voidStep(coupon, now.toISOString());
}

/** The coupon a code names (case-insensitive), through its code's lookup; undefined for a code not issued. */
export async function couponByCode(workspaceId: string, code: string): Promise<CouponRecord | undefined> {
  const lookup = isCodeShaped(code) ? await repo.getCodeLookup(workspaceId, codeKey(code)) : undefined;
  return lookup?.couponId ? repo.getCoupon(workspaceId, lookup.couponId) : undefined;
}

/**
 * The redeem of one coupon (a reward's, used at checkout) as steps of the caller's transaction, or
 * why it cannot be: `used`, `voided`, `expired` at `now`. The redeem's condition failing (a redeem
 * won the race) makes the caller read again (StaleRead), and the fresh read says which.
 */
export async function couponUse(
  workspaceId: string,
  couponId: string,
  now: Date,
  externalOrderId: string,
): Promise<TransactStep[] | 'used' | 'voided' | 'expired' | 'gone'> {
  const c = await repo.getCoupon(workspaceId, couponId);
  if (!c) return 'gone';
  if (c.status === 'redeemed') return 'used';
  if (c.status === 'voided') return 'voided';
  const at = now.toISOString();
  if (c.expiresKey <= at) return 'expired';
  return [
    { ...repo.redeemStep(c, at, { externalOrderId }), onConditionFailed: () => new StaleRead('coupon') },
    repo.countRedemptionStep(workspaceId, c.poolId),
    ...publish(workspaceId, [event('coupon.redeemed', { resource_id: c.id, member_ref: c.memberId, pool_id: c.poolId })]),
  ];
}

/**
 * Redeems a coupon at most once: the coupon's update is conditional on `status = issued` (and not
 * expired), in one transaction with the pool's redeemed counter, the `coupon.redeemed` event and the
 * idempotent answer. Of concurrent redeems exactly one commits; the others re-read and are told it
 * was already redeemed.
 */
async function redeem(
  workspaceId: string,
  load: () => Promise<CouponRecord>,
  input: RedeemInput,
  opts: WriteOptions<Coupon>,
  clock: () => Date,
  store: RedemptionStore,
): Promise<Coupon> {
  return withOptimisticRetry(async () => {
    const c = await load();
    const now = clock();
    if (c.status === 'redeemed') throw alreadyRedeemed(c);
    if (c.status === 'voided') throw voided();
    if (c.expiresKey <= now.toISOString()) throw expired(c);
    const at = now.toISOString();
    const redemption = { externalOrderId: input.externalOrderId ?? null };
    const after = toCoupon({ ...c, status: 'redeemed', redeemedAt: at, redemption }, now);
    try {
      await store.transactWrite([
        store.redeemStep(c, at, redemption),
        store.memberNotErasedStep(workspaceId, c.memberId),
        store.countRedemptionStep(workspaceId, c.poolId),
        ...publish(workspaceId, [event('coupon.redeemed', { resource_id: c.id, member_ref: c.memberId, pool_id: c.poolId })]),
        ...sealSteps(opts, after),
      ]);
    } catch (err) {
      if (!(err instanceof repo.RedeemRefused)) throw err;
      const fresh = await load();
      if (fresh.status === 'redeemed') throw alreadyRedeemed(fresh);
      if (fresh.status === 'voided') throw voided();
      if (fresh.expiresKey <= clock().toISOString()) throw expired(fresh);
      throw new StaleRead('coupon');
    }
    return after;
  });
}

export async function redeemCoupon(
  workspaceId: string,
  couponId: string,
  input: RedeemInput,
  store: RedemptionStore,
  opts: WriteOptions<Coupon> = {},
  clock: () => Date = () => new Date(),
): Promise<Coupon> {
  const load = async () => {
    const c = isCouponId(couponId) ? await store.getCoupon(workspaceId, couponId) : undefined;
    if (!c) throw notFound('Coupon');
    return c;
  };
  return redeem(workspaceId, load, input, opts, clock, store);
}

/**
 * Redeems the member's coupon with this code: one read of the code lookup finds it. A code that is
 * unknown, not issued yet, or another member's is 404, like an unknown id.
 */
export async function redeemMemberCoupon(
  workspaceId: string,
  memberId: string,
  input: RedeemInput & { code: string },
  store: RedemptionStore,
  opts: WriteOptions<Coupon> = {},
  clock: () => Date = () => new Date(),
): Promise<Coupon> {
  writable(await memberThrough(store, workspaceId, memberId));
  const lookup = isCodeShaped(input.code) ? await store.getCodeLookup(workspaceId, codeKey(input.code)) : undefined;
  if (!lookup?.couponId || lookup.memberId !== memberId) throw notFound('Coupon');
  const couponId = lookup.couponId;
  const load = async () => {
    const c = await store.getCoupon(workspaceId, couponId);
    if (!c || c.memberId !== memberId) throw notFound('Coupon');
    return c;
  };
  return redeem(workspaceId, load, { externalOrderId: input.externalOrderId }, opts, clock, store);
}

// ---------------------------------------------------------------------------------------------
// Lists
// ---------------------------------------------------------------------------------------------

export async function listCoupons(
  workspaceId: string,
  q: { limit: number; cursor?: string; poolId?: string; memberId?: string; status?: CouponStatus },
  now = new Date(),
): Promise<Page<Coupon>> {
  // An id that cannot exist names nothing in this workspace: an empty list.
  if ((q.poolId !== undefined && !isPoolId(q.poolId)) || (q.memberId !== undefined && !isMemberId(q.memberId))) {
    refuseCursor(q.cursor);
    return { items: [] };
  }
  const page = await repo.listCoupons(workspaceId, q, q.limit, q.cursor, now.toISOString());
  return { ...page, items: page.items.map((c) => toCoupon(c, now)) };
}

export async function listMemberCoupons(
  workspaceId: string,
  memberId: string,
  q: { limit: number; cursor?: string; poolId?: string; status?: CouponStatus },
  now = new Date(),
): Promise<Page<Coupon>> {
  await loadMember(workspaceId, memberId);
  return listCoupons(workspaceId, { ...q, memberId }, now);
}
