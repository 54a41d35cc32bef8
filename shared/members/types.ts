import type { MemberRecord } from './entities';
import type { LedgerEntry, Member } from './schemas';

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

/** Deltas of one points change. The balance delta becomes one ledger entry. */
export interface PointsDelta {
  balance: number;
  pending: number;
  /** Lifetime points move with earned points and their reversals, never with spending. */
  lifetime: number;
  orderCount: number;
}

/** What a manual points change or a correction answers. */
export interface PointsResult {
  entry: LedgerEntry;
  points: Member['points'];
  tier: string;
}
