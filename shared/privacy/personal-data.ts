import * as members from '../members';
import * as repo from './repository';
import type { Item } from '../platform/data/items';
import { ID_PATTERN } from '../platform/ids';
import { toCoupon, type CouponRecord } from '../coupons';
import { notFound } from '../platform/errors';
import { personalFieldsOf, recordsReferencing } from '../objects';
import { toMember, type MemberRecord } from '../members';
import { toOrder, type OrderRecord } from '../orders';
import { passesOfMember } from '../wallet';

/**
 * The data-subject export (spec 2.6: personal data is served per member, never in the workspace
 * archive): one JSON with everything the platform holds about one member. Each section is one entry
 * of `PERSONAL_DATA_SECTIONS`, read through the member's own partition or an index keyed by the
 * member; a new kind of member data is one more entry here (and one more scrub in erasure.ts).
 */

export interface SectionContext {
  workspaceId: string;
  member: MemberRecord;
  now: Date;
}

export type PersonalDataSection = (ctx: SectionContext) => Promise<unknown>;

const items = (rows: { item: Item }[]) => rows.map((r) => r.item);
const withoutWorkspace = ({ workspaceId: _w, ...rest }: Item) => rest;

/** The sections, in the order the document lists them. */
export const PERSONAL_DATA_SECTIONS: Record<string, PersonalDataSection> = {
  profile: async ({ member }) => toMember(member),
  pointsLedger: async ({ workspaceId, member }) => (await repo.ledgerItems(workspaceId, member.id)).map(({ memberId: _m, rev: _r, ...e }) => e),
  orders: async ({ workspaceId, member }) => items(await repo.memberIndexed(workspaceId, member.id, 'orders')).map((o) => toOrder(o as OrderRecord)),
  coupons: async ({ workspaceId, member, now }) =>
    items(await repo.memberIndexed(workspaceId, member.id, 'coupons')).map((c) => toCoupon(c as CouponRecord, now)),
  tags: async ({ workspaceId, member }) => (await repo.tagItems(workspaceId, member.id)).map((t) => ({ key: t.key, taggedAt: t.taggedAt ?? null })),
  captures: async ({ workspaceId, member }) => items(await repo.memberIndexed(workspaceId, member.id, 'captures')).map(withoutWorkspace),
  trackingEvents: async ({ workspaceId, member }) =>
    items(await repo.memberIndexed(workspaceId, member.id, 'trackingEvents')).map(({ workspaceId: _w, day: _d, ...e }) => e),
  // Each record names its personal fields: what the member's erasure clears.
  customObjectRecords: async ({ workspaceId, member }) =>
    (await recordsReferencing(workspaceId, member.id)).map(({ type, record: r }) => ({
      type: type.type,
      id: r.id,
      data: r.data,
      personalFields: personalFieldsOf(type.fields, r.data),
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
    })),
  walletPasses: async ({ workspaceId, member }) => passesOfMember(workspaceId, member.id),
};

export async function loadMember(workspaceId: string, memberId: string): Promise<MemberRecord> {
  const member = ID_PATTERN('mbr').test(memberId) ? await members.getMemberRecord(workspaceId, memberId) : undefined;
  if (!member) throw notFound('Member');
  return member;
}

export async function personalData(workspaceId: string, memberId: string, now = new Date()) {
  const member = await loadMember(workspaceId, memberId);
  const erasure = await repo.getErasure(workspaceId, memberId);
  const ctx = { workspaceId, member, now };
  const names = Object.keys(PERSONAL_DATA_SECTIONS);
  const values = await Promise.all(names.map((n) => PERSONAL_DATA_SECTIONS[n]!(ctx)));
  return {
    memberId,
    generatedAt: now.toISOString(),
    erasedAt: erasure?.erasedAt ?? null,
    ...Object.fromEntries(names.map((n, i) => [n, values[i]])),
  };
}
