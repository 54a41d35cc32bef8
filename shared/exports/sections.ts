import type { Item } from '../platform/data/items';
import { fromMinor } from '../platform/money';
import type { ExportSource } from './repository';
import type { ArchiveSection } from './schemas';
import { poolStatus, type PoolRecord } from '../coupons';
import { withTallies } from '../campaigns';

/**
 * What each archive section holds, as data: the list it reads, the only attributes it reads from
 * the table, and the record it writes. Per-member personal data (e-mail, names, phone, birth date,
 * custom attributes, external ids) and every secret are not among the attributes read, so they
 * cannot reach an archive; the members section is pseudonymous.
 */
export interface SectionSource {
  source: ExportSource;
  attributes: readonly string[];
  record: (item: Item, now: Date) => Record<string, unknown>;
  /** What a page of items needs from elsewhere before its records are written (a page at a time). */
  enrich?: (workspaceId: string, items: Item[]) => Promise<Item[]>;
}

export interface SectionDefinition extends SectionSource {
  /** A second list the section holds after the first, within the same cap. */
  followedBy?: SectionSource;
  /** One line for the archive's data-handling notes. */
  holds: string;
}

/** Coupon pools: they were the whole campaigns section before campaigns existed, and stay in it (docs/decisions/). */
const couponPools: SectionSource = {
  source: 'couponPools',
  attributes: [
    'id',
    'name',
    'discount',
    'stock',
    'issued',
    'redeemed',
    'remaining',
    'validFrom',
    'validUntil',
    'perMemberLimit',
    'pointsCost',
    'active',
    'createdAt',
  ],
  record: (p, now) => ({
    type: 'coupon_pool',
    id: p.id,
    name: p.name,
    discount: p.discount,
    status: poolStatus(p as PoolRecord, now),
    counts: { stock: p.stock, issued: p.issued, redeemed: p.redeemed, remaining: p.remaining },
    validFrom: p.validFrom ?? null,
    validUntil: p.validUntil ?? null,
    perMemberLimit: p.perMemberLimit ?? null,
    pointsCost: p.pointsCost ?? null,
    createdAt: p.createdAt,
  }),
};

const CAMPAIGN_ATTRIBUTES = [
  'id',
  'name',
  'status',
  'startsAt',
  'endsAt',
  'trigger',
  'conditions',
  'effect',
  'limits',
  'priority',
  'stackable',
  'grants',
  'pointsGranted',
  'createdAt',
  'updatedAt',
] as const;

export const SECTIONS: Readonly<Record<ArchiveSection, SectionDefinition>> = {
  members: {
    source: 'members',
    attributes: ['id', 'status', 'tier', 'balance', 'pending', 'lifetime', 'orderCount', 'tags', 'createdAt', 'updatedAt'],
    record: (m) => ({
      id: m.id,
      status: m.status,
      tier: m.tier,
      points: { balance: m.balance, pending: m.pending, lifetime: m.lifetime },
      orderCount: m.orderCount ?? 0,
      tagCount: Array.isArray(m.tags) ? m.tags.length : 0,
      createdAt: m.createdAt,
      updatedAt: m.updatedAt,
    }),
    holds: 'members: pseudonymous records (member id, status, tier, points balance/pending/lifetime, order and tag counts, created and updated dates)',
  },
  orders: {
    source: 'orders',
    attributes: [
      'id',
      'externalOrderId',
      'memberId',
      'storeId',
      'currency',
      'totalMinor',
      'refundedMinor',
      'status',
      'earned',
      'reversed',
      'items',
      'occurredAt',
      'createdAt',
    ],
    record: (o) => ({
      id: o.id,
      externalOrderId: o.externalOrderId,
      memberId: o.memberId,
      storeId: o.storeId ?? null,
      currency: o.currency,
      total: fromMinor(o.totalMinor, o.currency),
      refundedTotal: fromMinor(o.refundedMinor ?? 0, o.currency),
      status: o.status,
      itemCount: Array.isArray(o.items) ? o.items.length : 0,
      points: { earned: o.earned ?? 0, reversed: o.reversed ?? 0 },
      occurredAt: o.occurredAt,
      createdAt: o.createdAt,
    }),
    holds:
      'orders: order id, your order id, member id, store id, currency, total and refunded total, status, item count, points earned and reversed, dates (no line items)',
  },
  campaigns: {
    source: 'campaigns',
    attributes: CAMPAIGN_ATTRIBUTES,
    record: (c) => ({ type: 'campaign', ...Object.fromEntries(CAMPAIGN_ATTRIBUTES.map((a) => [a, c[a] ?? null])) }),
    // A campaign without a budget counts its grants in tally shards, which the campaign item does not hold.
    enrich: (workspaceId, items) => withTallies(workspaceId, items as (Item & { id: string; grants: number; pointsGranted: number })[]),
    followedBy: couponPools,
    holds:
      'campaigns: the campaigns (trigger, conditions, effect, limits, status, dates) with their grant counts (grants, pointsGranted), then the coupon pools with their discount, validity, status and counts (stock, issued, redeemed, remaining); never coupon codes',
  },
};
