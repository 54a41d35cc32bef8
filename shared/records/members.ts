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
  /** Set by the erasure, never removed: every later write of the member is refused (MEMBER_ERASED). */
  erasedAt?: string;
  createdAt: string;
  updatedAt: string;
}

export const LEDGER_TYPES = ['earn', 'deduct', 'refund_reversal', 'adjustment', 'campaign'] as const;
export type LedgerType = (typeof LEDGER_TYPES)[number];

/** A ledger entry as stored: the answered entry plus its member and the member revision it was written at. */
export interface LedgerEntryRecord {
  id: string;
  type: LedgerType;
  amount: number;
  balanceAfter: number;
  reason: string | null;
  source: {
    type: 'manual' | 'order' | 'refund' | 'reconciliation' | 'campaign';
    orderId: string | null;
    externalOrderId: string | null;
    apiKeyId: string | null;
    campaignId?: string;
  };
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
