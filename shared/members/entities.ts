/**
 * Members and their points ledger as the table stores them, declared once below the domain: each
 * record's schema (built on call: only the bundles that parse or derive from it carry it) and its
 * declaration on the key registry. A ledger entry is answered as stored (less the member id and
 * revision): the API's schema derives from this one.
 */
import * as z from 'zod';
import { defineEntity, seqKey } from '../platform/data/entity';

export const MEMBER_STATUSES = ['active', 'unenrolled'] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];

/** `redemption`: points spent on a reward of the catalog; `redemption_void`: those points given back when it was voided. */
export const LEDGER_TYPES = ['earn', 'deduct', 'refund_reversal', 'adjustment', 'campaign', 'expire', 'correction', 'redemption', 'redemption_void'] as const;
export type LedgerType = (typeof LEDGER_TYPES)[number];

/** Points of one earn still unspent, with the date they expire (times in ms since the epoch). */
const pointsLotSchema = () =>
  z.object({
    /** The ledger entry that earned them. */
    id: z.string(),
    points: z.number(),
    earnedAt: z.number(),
    /** null: no date of its own (no expiry, or the member's inactivity decides). */
    expiresAt: z.number().nullable(),
    /** The order that earned them (`claims.ts`: or a campaign's share of it): its refund takes them back first. */
    orderId: z.string().nullable(),
  });
export type PointsLotRecord = z.infer<ReturnType<typeof pointsLotSchema>>;

/** An order's points (or a campaign's share of it, `<orderId>/<campaignId>`: `claims.ts`) waiting to become spendable. */
const pendingPointsSchema = () =>
  z.object({
    orderId: z.string(),
    points: z.number(),
    activatesAt: z.number(),
    /** A campaign's share given back to an order that completed again: announced when first granted. */
    announced: z.literal(true).optional(),
  });
export type PendingPointsRecord = z.infer<ReturnType<typeof pendingPointsSchema>>;

/** Points an order earned that expired before a reversal of the order reached them. */
const expiredPointsSchema = () => z.object({ orderId: z.string(), points: z.number() });
export type ExpiredPointsRecord = z.infer<ReturnType<typeof expiredPointsSchema>>;

/** What the program engine keeps of a member's points, on the member item (one read, one write per change). */
const memberLotsSchema = () =>
  z.object({
    lots: z.array(pointsLotSchema()),
    pending: z.array(pendingPointsSchema()),
    /** The last earn or spend (what `inactivity_days` counts from). */
    lastActivityAt: z.number().nullable(),
    /** Expiry warnings up to this time were sent. */
    warnedThrough: z.number(),
    /**
     * Per order, its points that expired and that no reversal of the order has taken back yet: a
     * refund does not take them a second time (absent: none).
     */
    expired: z.array(expiredPointsSchema()).optional(),
  });
export type MemberLotsRecord = z.infer<ReturnType<typeof memberLotsSchema>>;

/**
 * A member as stored: the public fields flattened, plus concurrency counters and search text. The
 * one item is in three indexes: the list (gsi1, here), the due work (gsi2, `memberDue`) and the
 * activity (gsi3, `memberActivity`), the latter two moved by the ledger's own updates. The item
 * also names the request that wrote it last (`lastRequestId`, for the wallet push).
 */
export const memberRecordSchema = () =>
  z.object({
    id: z.string(),
    workspaceId: z.string(),
    email: z.string().nullable(),
    externalId: z.string().nullable(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    phone: z.string().nullable(),
    birthDate: z.string().nullable(),
    status: z.enum(MEMBER_STATUSES),
    tier: z.string(),
    balance: z.number(),
    pending: z.number(),
    lifetime: z.number(),
    orderCount: z.number(),
    customAttributes: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
    tags: z.array(z.string()),
    /** Ledger revision: every points change is conditional on it (optimistic concurrency). */
    rev: z.number(),
    /** Profile version: every profile change is conditional on it. */
    version: z.number(),
    searchText: z.string(),
    /** The member's points lots and pending points (absent until the first change that has any). */
    lots: memberLotsSchema().optional(),
    /** The last local day the member was active (a ledger entry other than an expiry, or an order): the active-members counters. */
    activeDay: z.string().optional(),
    /** Set by the erasure, never removed: every later write of the member is refused (MEMBER_ERASED). */
    erasedAt: z.string().optional(),
    createdAt: z.string(),
    updatedAt: z.string(),
  });
export type MemberRecord = z.infer<ReturnType<typeof memberRecordSchema>>;

export const memberEntity = /* @__PURE__ */ defineEntity({
  name: 'member',
  keys: (m: MemberRecord) => ({ workspaceId: m.workspaceId, memberId: m.id }),
  also: ['memberDue', 'memberActivity'],
  beside: { lastRequestId: (_, c: { lastRequestId?: string }) => c.lastRequestId },
});

/** A ledger entry as stored: the answered entry plus its member and the member revision it was written at. */
export const ledgerEntryRecordSchema = () =>
  z.object({
    id: z.string().describe('ple_...'),
    type: z.enum(LEDGER_TYPES),
    amount: z.number().int().describe('Signed change of the balance'),
    balanceAfter: z.number().int(),
    reason: z.string().nullable(),
    source: z.object({
      type: z
        .enum(['manual', 'order', 'refund', 'reconciliation', 'campaign', 'program', 'coupon', 'reward', 'import'])
        .describe(
          "What made the entry; program: the program engine itself (an expiry); coupon: a coupon bought with points (a redemption, its id in the reason); reward: a reward of the catalog redeemed or voided; import: an import job's opening balance",
        ),
      orderId: z.string().nullable(),
      externalOrderId: z.string().nullable(),
      apiKeyId: z.string().nullable(),
      campaignId: z.string().optional().describe('cmp_...: the campaign that granted a `campaign` entry (its trigger, an order, in orderId)'),
      reversedEntryId: z.string().optional().describe('ple_...: the entry a `correction` reverses'),
      rewardId: z.string().optional().describe('rwd_...: the reward a `redemption` or `redemption_void` entry is about'),
      redemptionId: z.string().optional().describe('rdm_...: the redemption a `redemption` entry made or a `redemption_void` entry voided'),
      importJobId: z.string().optional().describe('imp_...: the import job of an `import` entry'),
    }),
    outsideTier: z
      .literal(true)
      .optional()
      .describe(
        'Set when the points count toward neither lifetime points nor the tier metric: a goodwill earn (`countTowardTier: false`) and the correction that reverses one',
      ),
    /** Set once: a second reversal is refused. */
    reversedBy: z.string().optional().describe('ple_...: the `correction` that reversed this entry'),
    createdAt: z.string(),
    memberId: z.string(),
    rev: z.number(),
  });
export type LedgerEntryRecord = z.infer<ReturnType<typeof ledgerEntryRecordSchema>>;

export const ledgerEntryEntity = /* @__PURE__ */ defineEntity({
  name: 'ledgerEntry',
  keys: (e: LedgerEntryRecord, c: { workspaceId: string }) => ({ workspaceId: c.workspaceId, memberId: e.memberId, seq: seqKey(e.rev) }),
});

/**
 * A member's tier state beside the member: when the current tier was reached and until when it is
 * kept, qualifying points and orders per local day (the last 366 days), and when the tier must be
 * looked at again without any activity (null: it cannot drop by time alone). The daily run finds
 * members through `reviewAt`.
 */
export interface MemberTierRecord {
  memberId: string;
  reachedAt: string;
  retainedUntil: string;
  days: Record<string, [points: number, orders: number]>;
  reviewAt: string | null;
}
