import type { LedgerEntry, Member, MemberStatus } from './schemas';

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

export type LedgerEntryRecord = LedgerEntry & { memberId: string; rev: number };

export function toMember(r: MemberRecord): Member {
  return {
    id: r.id,
    email: r.email,
    externalId: r.externalId,
    firstName: r.firstName,
    lastName: r.lastName,
    phone: r.phone,
    birthDate: r.birthDate,
    status: r.status,
    tier: r.tier,
    points: { balance: r.balance, pending: r.pending, lifetime: r.lifetime },
    orderCount: r.orderCount,
    customAttributes: r.customAttributes,
    tags: r.tags,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

export const searchTextOf = (r: Pick<MemberRecord, 'email' | 'externalId' | 'firstName' | 'lastName' | 'phone'>): string =>
  [r.email, r.externalId, r.firstName, r.lastName, r.phone].filter(Boolean).join(' ').toLowerCase();
