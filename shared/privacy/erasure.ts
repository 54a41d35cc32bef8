import * as members from '../members';
import * as repo from './repository';
import { withOptimisticRetry } from '../platform/data/concurrency';
import { event, publish } from '../platform/events/outbox';
import { audited, type AuditContext } from '../audit';
import { fingerprintOf, normalisePhone } from '../captures';
import type { MemberRecord } from '../members';
import { personalFieldsOf, clearRecordFields, recordsReferencing } from '../objects';
import { retireMemberPasses } from '../wallet';
import { loadMember } from './personal-data';

/**
 * Erasure of one member's personal data (the right to erasure). What goes and what stays:
 *
 * - Goes: the profile's e-mail, external id, names, phone, birth date and custom attributes (and the
 *   lookups keyed by the e-mail, external id and phone, so the person may enrol again as a new
 *   member); the personal fields of the custom-object records that reference the member (marked
 *   `personal`, e-mail fields, e-mail- or phone-like text; with their search copies and value
 *   entries); the personal fields and attributes of the
 *   member's captures (and their dedupe windows); the properties of the member's tracking events;
 *   the free-text reasons of the member's ledger entries; the device registrations (push tokens) of
 *   the member's wallet passes, whose serials answer 410 from then on.
 * - Stays, pseudonymous: the member id, status (unenrolled), tier, balance, pending and lifetime
 *   points, order count and tags; the ledger amounts; orders with their totals, refunds and points;
 *   coupons; referral links; tracking event types and times; the other fields of custom-object
 *   records that reference the member id. Balances still equal their ledger sums and the workspace's reports still add up,
 *   while nothing left names or contacts the person.
 *
 * Terminal: the member item keeps `erasedAt`, and every later write of the member is refused
 * (MEMBER_ERASED; see the members repository).
 *
 * Idempotent: the first erasure writes a marker in the same transaction as the profile change, the
 * audit entry (`member.erased`) and the thin `member.erased` event; a repeat answers the same
 * `erasedAt` and emits nothing, and only finishes scrubbing what an interrupted first run left.
 */

export interface ErasureResult {
  memberId: string;
  erasedAt: string;
  /** True when the member had been erased before this request. */
  alreadyErased: boolean;
}

class AlreadyErased extends Error {
  constructor() {
    super('already erased');
    this.name = 'AlreadyErased';
  }
}

const scrubbedProfile = (m: MemberRecord, at: string): MemberRecord => ({
  ...m,
  email: null,
  externalId: null,
  firstName: null,
  lastName: null,
  phone: null,
  birthDate: null,
  customAttributes: {},
  searchText: '',
  status: 'unenrolled',
  erasedAt: at,
  updatedAt: at,
});

export async function eraseMember(workspaceId: string, memberId: string, audit: AuditContext, now = new Date()): Promise<ErasureResult> {
  const first = await loadMember(workspaceId, memberId);
  const phones = new Set<string>(first.phone ? [normalisePhone(first.phone)] : []);
  let result: ErasureResult;
  const previous = await repo.getErasure(workspaceId, memberId);
  if (previous) {
    result = { memberId, erasedAt: previous.erasedAt, alreadyErased: true };
    // A member erased before erasure was terminal gets its mark now. Read again: `first` may predate a
    // concurrent erasure that has since written both the marker and the mark.
    const current = first.erasedAt ? first : await members.getMemberRecord(workspaceId, memberId);
    if (current && !current.erasedAt) await repo.commit(members.updateProfileSteps(current, scrubbedProfile(current, previous.erasedAt)));
  } else {
    const at = now.toISOString();
    try {
      await withOptimisticRetry(async () => {
        const current = (await members.getMemberRecord(workspaceId, memberId)) ?? first;
        if (current.phone) phones.add(normalisePhone(current.phone));
        // The marker first: a concurrent erasure fails on it (AlreadyErased) before the profile's own condition.
        await repo.commit([
          repo.erasureMarkerStep(workspaceId, memberId, at, () => new AlreadyErased()),
          ...members.updateProfileSteps(current, scrubbedProfile(current, at)),
          audited(workspaceId, audit, 'member.erased', { type: 'member', id: memberId }, now),
          ...publish(workspaceId, [event('member.erased', { resource_id: memberId, member_ref: memberId }, now)]),
        ]);
      });
      result = { memberId, erasedAt: at, alreadyErased: false };
    } catch (err) {
      if (!(err instanceof AlreadyErased)) throw err;
      const raced = await repo.getErasure(workspaceId, memberId);
      result = { memberId, erasedAt: raced?.erasedAt ?? at, alreadyErased: true };
    }
  }
  await scrubRelated(workspaceId, memberId, phones);
  return result;
}

/** What a scrub of the member's related data gets: the member and the phones it was known by. */
export interface ErasureContext {
  workspaceId: string;
  memberId: string;
  phones: Set<string>;
}

/**
 * Everything outside the member item, one entry per kind of member data (like the sections of the
 * personal-data export): each idempotent, so a repeat finishes what an interrupted run left. A new
 * kind of member data adds its scrub here (wallet passes: turn them gone, so their serials answer 410).
 */
export const ERASURE_SCRUBS: Record<string, (ctx: ErasureContext) => Promise<void>> = {
  captures: async ({ workspaceId, memberId, phones }) => {
    for (const { key, item } of await repo.memberIndexed(workspaceId, memberId, 'captures')) {
      if (item.phone) phones.add(normalisePhone(String(item.phone)));
      if (item.email || item.phone) {
        const fingerprint = fingerprintOf({ email: item.email ?? undefined, phone: item.phone ?? undefined, source: String(item.source) });
        await repo.removeCaptureWindow(workspaceId, fingerprint);
      }
      await repo.scrub(key, { email: null, phone: null, firstName: null, lastName: null, attributes: {} });
    }
  },
  // After captures: they add the phones the member was captured with.
  phoneLookups: async ({ workspaceId, phones }) => {
    for (const phone of phones) await repo.removeCapturePhone(workspaceId, phone);
  },
  trackingEvents: async ({ workspaceId, memberId }) => {
    for (const { key, item } of await repo.memberIndexed(workspaceId, memberId, 'trackingEvents')) {
      if (item.properties && Object.keys(item.properties).length) await repo.scrub(key, { properties: {} });
    }
  },
  // Every serial of the member answers 410 from now on and its device registrations (push tokens) go.
  walletPasses: async ({ workspaceId, memberId }) => retireMemberPasses(workspaceId, memberId),
  // The personal fields of every record whose member reference names the member; the reference stays.
  customObjectRecords: async ({ workspaceId, memberId }) => {
    for (const { type, record } of await recordsReferencing(workspaceId, memberId)) {
      const keys = personalFieldsOf(type.fields, record.data);
      if (keys.length) await clearRecordFields(workspaceId, type, record.id, keys);
    }
  },
  ledgerReasons: async ({ workspaceId, memberId }) => {
    for (const entry of await repo.ledgerItems(workspaceId, memberId)) {
      if (entry.reason !== null && entry.reason !== undefined) {
        await repo.scrubLedgerEntry(workspaceId, memberId, Number(entry.rev), { reason: null });
      }
    }
  },
};

async function scrubRelated(workspaceId: string, memberId: string, phones: Set<string>): Promise<void> {
  const ctx = { workspaceId, memberId, phones };
  for (const scrub of Object.values(ERASURE_SCRUBS)) await scrub(ctx);
}
