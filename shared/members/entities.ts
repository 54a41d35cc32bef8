/**
 * Members and their points ledger as the table stores them. Plain declarations below the domain, so
 * the data layer can name them without importing it. A ledger entry is answered as stored (less the
 * member id and revision): the domain's answer schema is checked against `LedgerEntryRecord` at
 * compile time (`SameShape`), so this stays the one description of what is stored.
 */

export const MEMBER_STATUSES = ['active', 'unenrolled'] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];

/** A member as stored: the public fields flattened, plus concurrency counters and search text. */
export interface MemberRecord {
  id: string;
  workspaceId: string;
  email: string | null;
  externalId: string | null;
  firstName: string | null;
  lastName: string | null;
  phone: string | null;
  birthDate: string | null;
  status: MemberStatus;
  tier: string;
  balance: number;
  pending: number;
  lifetime: number;
  orderCount: number;
  customAttributes: Record<string, string | number | boolean>;
  tags: string[];
  /** Ledger revision: every points change is conditional on it (optimistic concurrency). */
  rev: number;
  /** Profile version: every profile change is conditional on it. */
  version: number;
  searchText: string;
  /** The member's points lots and pending points (absent until the first change that has any). */
  lots?: MemberLotsRecord;
  /** Set by the erasure, never removed: every later write of the member is refused (MEMBER_ERASED). */
  erasedAt?: string;
  createdAt: string;
  updatedAt: string;
}

export const LEDGER_TYPES = ['earn', 'deduct', 'refund_reversal', 'adjustment', 'campaign', 'expire', 'correction'] as const;

/** Points of one earn still unspent, with the date they expire (times in ms since the epoch). */
export interface PointsLotRecord {
  /** The ledger entry that earned them. */
  id: string;
  points: number;
  earnedAt: number;
  /** null: no date of its own (no expiry, or the member's inactivity decides). */
  expiresAt: number | null;
  /** The order that earned them (`claims.ts`: or a campaign's share of it): its refund takes them back first. */
  orderId: string | null;
}

/** An order's points (or a campaign's share of it) waiting to become spendable. */
export interface PendingPointsRecord {
  /** The order, or `<orderId>/<campaignId>` for a campaign's share (`claims.ts`). */
  orderId: string;
  points: number;
  activatesAt: number;
}

/** What the program engine keeps of a member's points, on the member item (one read, one write per change). */
export interface MemberLotsRecord {
  lots: PointsLotRecord[];
  pending: PendingPointsRecord[];
  /** The last earn or spend (what `inactivity_days` counts from). */
  lastActivityAt: number | null;
  /** Expiry warnings up to this time were sent. */
  warnedThrough: number;
  /**
   * Per order, its points that expired and that no reversal of the order has taken back yet: a
   * refund does not take them a second time (absent: none).
   */
  expired?: ExpiredPointsRecord[];
}

/** Points an order earned that expired before a reversal of the order reached them. */
export interface ExpiredPointsRecord {
  orderId: string;
  points: number;
}
export type LedgerType = (typeof LEDGER_TYPES)[number];

/** A ledger entry as stored: the answered entry plus its member and the member revision it was written at. */
export interface LedgerEntryRecord {
  id: string;
  type: LedgerType;
  amount: number;
  balanceAfter: number;
  reason: string | null;
  source: {
    /** program: the program engine itself (an expiry); coupon: a coupon bought with points (a redemption). */
    type: 'manual' | 'order' | 'refund' | 'reconciliation' | 'campaign' | 'program' | 'coupon';
    orderId: string | null;
    externalOrderId: string | null;
    apiKeyId: string | null;
    campaignId?: string;
    /** A `correction` that reverses an entry: the entry it reverses. */
    reversedEntryId?: string;
  };
  /** The `correction` that reversed this entry (set once: a second reversal is refused). */
  reversedBy?: string;
  createdAt: string;
  memberId: string;
  rev: number;
}

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
