import { candidateSchema, metricsSchema, referralCodeSchema } from '../../ambassador';
import { auditEntrySchema } from '../../audit';
import { captureSchema } from '../../captures';
import { brandSchema, categorySchema, importResultSchema, productSchema } from '../../catalog';
import { couponSchema, discountSchema, poolSchema } from '../../coupons';
import { exportJobSchema, exportScheduleSchema, operationalJobSchema } from '../../exports';
import { ledgerEntrySchema, memberSchema, tierStatusSchema } from '../../members';
import { orderSchema, refundSchema } from '../../orders';
import { programSchema } from '../../program';
import { redemptionSchema, rewardSchema } from '../../rewards';
import { storeSchema } from '../../stores';
import { memberTagSchema, memberTagsSchema, tagResultSchema, tagSchema } from '../../tags';
import { statsSchema, trackResultSchema } from '../../tracking';
import { brandingSchema } from '../../wallet';
import { attemptSchema, endpointSchema, deliveryIdOf } from '../../webhooks';
import { apiKeySchema } from '../../api-keys';
import { userSchema, workspaceSchema } from '../../auth';
import { fullRecord, objectTypeSchema as typeDetail } from '../../objects';
import { outputOf } from './types';

/**
 * The one workspace every example lives in: ids as the platform mints them (`<prefix>_` + 26
 * characters), one member (Ada) who enrols, earns a welcome bonus, orders for 59.90 EUR in the Berlin
 * store and refunds part of it, so the operations' examples tell one consistent story.
 */
export const ids = {
  workspace: 'ws_01jpz8a1b2c3d4e5f6g7h8j9k0',
  user: 'usr_01jpz8a1b2c3d4e5f6g7h8j9k1',
  apiKey: 'key_01jpz8a2m4n6p8q0r2s4t6v8w0',
  store: 'sto_01jpz8b3c5d7e9f1g3h5j7k9m1',
  member: 'mbr_01jpz8k3m2q7v5x9c4t6r8w2ya',
  secondMember: 'mbr_01jpz8k9x7w5v3t1s9r7q5p3nb',
  welcomeEntry: 'ple_01jpz8m0a2b4c6d8e0f2g4h6jc',
  orderEntry: 'ple_01jpz8n4d6f8g0h2j4k6m8n0pd',
  order: 'ord_01jpz8n4d6f8g0h2j4k6m8n0pe',
  refund: 'rfd_01jpz8q8s0t2v4w6x8y0z2a4bf',
  webhook: 'whe_01jpz8c7e9g1h3j5k7m9n1p3qg',
  event: 'evt_01jpz8n4d6f8g0h2j4k6m8n0pj',
  record: 'rec_01jpz8s6v8x0z2b4d6f8h0k2mk',
  product: 'prd_01jpz8d1f3h5k7m9p1r3t5v7xm',
  category: 'cat_01jpz8d1f3h5k7m9p1r3t5v7xn',
  parentCategory: 'cat_01jpz8d1f3h5k7m9p1r3t5v7xq',
  brand: 'brd_01jpz8d1f3h5k7m9p1r3t5v7xp',
  capture: 'cap_01jpz8t0w2y4a6c8e0g2j4m6pq',
  pool: 'cpl_01jpz8e5g7j9m1p3s5v7x9z1br',
  coupon: 'cpn_01jpz8v4y6a8c0e2g4j6m8p0rs',
  audit: 'aud_01jpz8w8a0c2e4g6j8m0p2s4vt',
  request: 'req_01jpz8n4d6f8g0h2j4k6m8n0pv',
  export: 'exp_01jpz8x2c4e6g8j0m2p4s6v8yw',
  schedule: 'esc_01jpz8f9k1n3q5t7w9y1b3d5gx',
  campaign: 'cmp_01jpz8g3h5k7m9p1r3t5v7x9za',
  reward: 'rwd_01jpz8h7k9m1p3r5t7v9x1z3bc',
  redemption: 'rdm_01jpz8y6a8c0e2g4j6m8p0r2sd',
  redemptionEntry: 'ple_01jpz8y6a8c0e2g4j6m8p0r2se',
  redemptionVoidEntry: 'ple_01jpz8z0b2d4f6h8k0n2q4s6vf',
  rewardCoupon: 'cpn_01jpz8y6a8c0e2g4j6m8p0r2sg',
} as const;

/** One event to one endpoint is one delivery, whose id is derived from both. */
export const delivery = deliveryIdOf(ids.event, ids.webhook);

export const at = {
  workspaceCreated: '2026-03-02T08:15:00.000Z',
  enrolled: '2026-03-10T16:42:05.000Z',
  welcomeBonus: '2026-03-10T16:42:06.000Z',
  ordered: '2026-03-14T11:05:00.000Z',
  orderRecorded: '2026-03-14T11:05:02.000Z',
  refunded: '2026-03-18T09:30:00.000Z',
  now: '2026-03-20T10:00:00.000Z',
} as const;

export const email = 'ada.lovelace@example.com';

export const workspace = outputOf(workspaceSchema, { id: ids.workspace, name: 'Northwind Coffee', createdAt: at.workspaceCreated, sandbox: false });

export const user = outputOf(userSchema, {
  id: ids.user,
  workspaceId: ids.workspace,
  email: 'grace.hopper@example.com',
  name: 'Grace Hopper',
  role: 'owner',
  createdAt: at.workspaceCreated,
  updatedAt: at.workspaceCreated,
});

export const apiKey = outputOf(apiKeySchema, {
  id: ids.apiKey,
  name: 'Checkout integration',
  scopes: ['members:read', 'members:write', 'orders:read', 'orders:write'],
  prefix: 'fl_live_3kq9',
  createdAt: '2026-03-02T08:20:00.000Z',
  lastUsedAt: at.orderRecorded,
  createdBy: ids.user,
});

export const program = outputOf(programSchema, {
  earn: {
    pointsPerUnit: 1,
    rounding: 'floor',
    currencyOverrides: { CHF: 0.9 },
    basis: 'total',
    exclude: { skus: [], categories: ['gift-cards'], discountedLines: false },
    caps: { baseDaily: null, baseMonthly: null, campaignDaily: 500, campaignMonthly: null },
  },
  tiers: {
    metric: 'lifetime_points',
    levels: [
      { key: 'bronze', name: 'Bronze', threshold: 0 },
      { key: 'silver', name: 'Silver', threshold: 500 },
      { key: 'gold', name: 'Gold', threshold: 2000 },
    ],
    window: 'rolling_365_days',
    retainDays: 365,
    downgrade: 'one_level',
  },
  points: { expiry: { policy: 'end_of_month', days: 365 }, warnDays: [30, 7], pendingDays: 0 },
  orders: { backdatingLimitDays: 7 },
  timeZone: 'Europe/Berlin',
  pointValue: { EUR: 0.01, CHF: 0.01 },
  version: 1,
  updatedAt: '2026-03-05T14:00:00.000Z',
});

export const store = outputOf(storeSchema, {
  id: ids.store,
  name: 'Northwind Coffee Berlin Mitte',
  code: 'BER-01',
  address: { line1: 'Rosenthaler Str. 40', line2: null, city: 'Berlin', postalCode: '10178', region: null, country: 'DE' },
  timezone: 'Europe/Berlin',
  currency: 'EUR',
  status: 'active',
  createdAt: '2026-03-02T09:00:00.000Z',
  updatedAt: '2026-03-02T09:00:00.000Z',
});

/** Ada after her welcome bonus (250) and first order (59): 309 points, still Bronze. */
export const member = outputOf(memberSchema, {
  id: ids.member,
  email,
  externalId: 'crm-10042',
  firstName: 'Ada',
  lastName: 'Lovelace',
  phone: '+4930901820',
  birthDate: '1990-12-10',
  status: 'active',
  tier: 'bronze',
  points: { balance: 309, pending: 0, lifetime: 309 },
  orderCount: 1,
  customAttributes: { favouriteDrink: 'flat white', newsletter: true },
  tags: ['vip'],
  createdAt: at.enrolled,
  updatedAt: at.orderRecorded,
});

/** Ada as she is enrolled: no points, no orders yet. */
export const newMember = outputOf(memberSchema, {
  ...member,
  tier: 'bronze',
  points: { balance: 0, pending: 0, lifetime: 0 },
  orderCount: 0,
  tags: [],
  updatedAt: at.enrolled,
});

export const welcomeEntry = outputOf(ledgerEntrySchema, {
  id: ids.welcomeEntry,
  type: 'earn',
  amount: 250,
  balanceAfter: 250,
  reason: 'Welcome bonus',
  source: { type: 'manual', orderId: null, externalOrderId: null, apiKeyId: ids.apiKey },
  createdAt: at.welcomeBonus,
});

export const orderEntry = outputOf(ledgerEntrySchema, {
  id: ids.orderEntry,
  type: 'earn',
  amount: 59,
  balanceAfter: 309,
  reason: null,
  source: { type: 'order', orderId: ids.order, externalOrderId: 'WEB-100234', apiKeyId: ids.apiKey },
  createdAt: at.orderRecorded,
});

export const tierStatus = outputOf(tierStatusSchema, {
  current: { key: 'bronze', name: 'Bronze', threshold: 0 },
  next: { key: 'silver', name: 'Silver', threshold: 500 },
  metric: 'lifetime_points',
  window: 'lifetime',
  value: 309,
  remaining: 191,
  progress: 0.618,
  retainedUntil: null,
});

/** Ada's first order: 59.90 EUR at 1 point per EUR, rounded down. */
export const order = outputOf(orderSchema, {
  id: ids.order,
  externalOrderId: 'WEB-100234',
  memberId: ids.member,
  storeId: ids.store,
  currency: 'EUR',
  total: 59.9,
  earningAmount: 59.9,
  refundedTotal: 0,
  status: 'completed',
  refundStatus: 'none',
  items: [
    { sku: 'BEAN-ETH-250', name: 'Ethiopia Yirgacheffe 250 g', quantity: 2, unitPrice: 14.95 },
    { sku: 'MUG-BLK', name: 'Stoneware mug, black', quantity: 1, unitPrice: 30 },
  ],
  points: { earned: 59, reversed: 0, net: 59, pending: false },
  occurredAt: at.ordered,
  createdAt: at.orderRecorded,
  updatedAt: at.orderRecorded,
});

export const refund = outputOf(refundSchema, {
  id: ids.refund,
  amount: 30,
  pointsReversed: 29,
  basePointsReversed: 29,
  bonusPointsReversed: 0,
  coupons: { voided: [], used: [] },
  reason: 'Mug arrived broken',
  createdAt: at.refunded,
});

/** The order after the refund of the mug. */
export const refundedOrder = outputOf(orderSchema, {
  ...order,
  refundedTotal: 30,
  refundStatus: 'partial',
  points: { earned: 59, reversed: 29, net: 30, pending: false },
  updatedAt: at.refunded,
});

export const webhookEndpoint = outputOf(endpointSchema, {
  id: ids.webhook,
  url: 'https://hooks.example.com/loyalty',
  description: 'CRM sync',
  eventTypes: ['member.created', 'loyalty.points_earned', 'order.created', 'order.refunded'],
  status: 'active',
  disabledReason: null,
  createdAt: '2026-03-03T10:00:00.000Z',
  updatedAt: '2026-03-03T10:00:00.000Z',
});

export const webhookAttempt = outputOf(attemptSchema, {
  id: 'att_01jpz8r2t4v6w8x0y2z4a6b8cj',
  deliveryId: delivery,
  eventId: ids.event,
  eventType: 'order.created',
  attempt: 1,
  trigger: 'event',
  statusCode: 200,
  error: null,
  durationMs: 142,
  responseExcerpt: '{"received":true}',
  nextRetryAt: null,
  state: 'delivered',
  at: '2026-03-14T11:05:03.000Z',
});

export const objectType = outputOf(typeDetail, {
  type: 'vehicle',
  label: 'Vehicle',
  description: "A member's registered car, for service reminders",
  titleField: 'plate',
  fields: [
    { key: 'plate', type: 'text', required: true, label: 'Number plate', personal: true },
    { key: 'model', type: 'text', required: false, label: 'Model' },
    { key: 'fuel', type: 'enum', required: false, options: ['petrol', 'diesel', 'electric'], label: 'Fuel' },
    { key: 'owner', type: 'member_ref', required: true, label: 'Owner' },
  ],
});

export const objectRecord = outputOf(fullRecord, {
  id: ids.record,
  data: { plate: 'B-AL 1815', model: 'Analytical Engine GT', fuel: 'electric', owner: ids.member },
  createdAt: '2026-03-15T12:00:00.000Z',
  updatedAt: '2026-03-15T12:00:00.000Z',
});

export const product = outputOf(productSchema, {
  id: ids.product,
  sku: 'BEAN-ETH-250',
  name: 'Ethiopia Yirgacheffe 250 g',
  description: 'Washed, floral, notes of bergamot and peach',
  price: { amount: 14.95, currency: 'EUR' },
  categoryIds: [ids.category, ids.parentCategory],
  brandId: ids.brand,
  imageUrl: 'https://shop.example.com/images/bean-eth-250.jpg',
  url: 'https://shop.example.com/products/bean-eth-250',
  attributes: { origin: 'Ethiopia', roast: 'light', weightGrams: 250 },
  status: 'active',
  createdAt: '2026-03-02T09:30:00.000Z',
  updatedAt: '2026-03-02T09:30:00.000Z',
});

export const category = outputOf(categorySchema, {
  id: ids.category,
  key: 'coffee-beans',
  name: 'Coffee beans',
  parentKey: 'coffee',
  createdAt: '2026-03-02T09:30:00.000Z',
  updatedAt: '2026-03-02T09:30:00.000Z',
});

export const brand = outputOf(brandSchema, {
  id: ids.brand,
  key: 'northwind-roastery',
  name: 'Northwind Roastery',
  createdAt: '2026-03-02T09:30:00.000Z',
  updatedAt: '2026-03-02T09:30:00.000Z',
});

export const catalogImportResult = outputOf(importResultSchema, { index: 0, sku: 'BEAN-ETH-250', outcome: 'created', productId: ids.product, error: null });

export const tag = outputOf(tagSchema, { key: 'vip', memberCount: 42, createdAt: '2026-03-03T12:00:00.000Z', updatedAt: '2026-03-15T08:00:00.000Z' });

export const memberTag = outputOf(memberTagSchema, { key: 'vip', taggedAt: '2026-03-15T08:00:00.000Z' });

export const memberTags = outputOf(memberTagsSchema, { memberId: ids.member, tags: [memberTag] });

export const tagMemberResult = outputOf(tagResultSchema, {
  memberId: ids.member,
  tags: [memberTag, { key: 'newsletter', taggedAt: at.now }],
  added: ['newsletter'],
});

export const capture = outputOf(captureSchema, {
  id: ids.capture,
  memberId: ids.secondMember,
  memberOutcome: 'created',
  matchedBy: null,
  duplicate: false,
  source: 'instore-tablet',
  email: 'alan.turing@example.com',
  phone: null,
  firstName: 'Alan',
  lastName: 'Turing',
  consents: { marketingEmail: true, marketingSms: false, terms: true },
  attributes: { store: 'BER-01' },
  referral: { code: 'ADA7K3QX', outcome: 'linked', referrerId: ids.member },
  createdAt: at.now,
});

export const couponDiscount = outputOf(discountSchema, { type: 'percent', value: 15 });

export const couponPool = outputOf(poolSchema, {
  id: ids.pool,
  name: 'Members: 15% off',
  discount: couponDiscount,
  codeConfig: { mode: 'generated', prefix: 'LOYAL-', length: 8 },
  stock: 1000,
  issued: 1,
  redeemed: 0,
  remaining: 999,
  validFrom: '2026-03-01T00:00:00.000Z',
  validUntil: null,
  perMemberLimit: 1,
  pointsCost: 100,
  active: true,
  status: 'active',
  createdAt: '2026-02-25T10:00:00.000Z',
});

export const coupon = outputOf(couponSchema, {
  id: ids.coupon,
  code: 'LOYAL-7KQ2M9XD',
  poolId: ids.pool,
  memberId: ids.member,
  status: 'issued',
  discount: couponDiscount,
  validFrom: '2026-03-01T00:00:00.000Z',
  validUntil: null,
  pointsCost: 100,
  issuedAt: at.now,
  redeemedAt: null,
  redemption: null,
});

export const redeemedCoupon = outputOf(couponSchema, {
  ...coupon,
  status: 'redeemed',
  redeemedAt: '2026-03-21T15:20:00.000Z',
  redemption: { externalOrderId: 'WEB-100391' },
});

export const reward = outputOf(rewardSchema, {
  id: ids.reward,
  name: '5 € off your next order',
  description: 'A code for 5 € off any order of 25 € or more, valid for 30 days.',
  imageUrl: 'https://cdn.example.com/rewards/5-off.png',
  pointsCost: 500,
  benefit: { type: 'fixed_discount', amount: 500, currency: 'EUR' },
  minimumSpend: { amount: 2500, currency: 'EUR' },
  validityDays: 30,
  stock: 200,
  remaining: 199,
  perMemberLimit: 2,
  availableFrom: '2026-03-01T00:00:00.000Z',
  availableUntil: null,
  allowedTiers: null,
  couponPoolId: ids.pool,
  voidWhenExpired: true,
  status: 'active',
  version: 2,
  createdAt: '2026-02-26T09:00:00.000Z',
  updatedAt: '2026-03-01T00:00:00.000Z',
});

export const redemption = outputOf(redemptionSchema, {
  id: ids.redemption,
  rewardId: ids.reward,
  rewardName: reward.name,
  memberId: ids.member,
  pointsSpent: 500,
  status: 'issued',
  ledgerEntryId: ids.redemptionEntry,
  voidEntryId: null,
  couponId: ids.rewardCoupon,
  couponCode: 'LOYAL-3WQ8J2NB',
  createdAt: at.now,
  voidedAt: null,
  voidAt: '2026-04-19T10:00:00.000Z',
  usedAt: null,
  externalOrderId: null,
});

export const usedRedemption = outputOf(redemptionSchema, {
  ...redemption,
  status: 'used',
  usedAt: '2026-03-21T15:20:00.000Z',
  externalOrderId: 'WEB-100391',
  voidAt: null,
});

export const voidedRedemption = outputOf(redemptionSchema, {
  ...redemption,
  status: 'voided',
  voidEntryId: ids.redemptionVoidEntry,
  voidedAt: '2026-03-20T10:30:00.000Z',
  voidAt: null,
});

export const ambassadorCandidate = outputOf(candidateSchema, {
  memberId: ids.member,
  email,
  firstName: 'Ada',
  lastName: 'Lovelace',
  tier: 'bronze',
  lifetimePoints: 309,
  orderCount: 1,
  qualifiesBy: ['lifetime_points'],
  referralCode: 'ADA7K3QX',
  referredSignups: 1,
});

export const ambassadorMetrics = outputOf(metricsSchema, {
  codesIssued: 12,
  referredSignups: 31,
  referredRevenue: [{ currency: 'EUR', amount: 1845.6, orders: 38 }],
  referredRevenueComplete: true,
});

export const referralCode = outputOf(referralCodeSchema, { memberId: ids.member, code: 'ADA7K3QX', issuedAt: at.now, referredSignups: 0 });

export const trackEventResult = outputOf(trackResultSchema, { index: 0, eventId: 'web-7f3a2c91', outcome: 'accepted', error: null });

export const trackingStats = outputOf(statsSchema, {
  from: '2026-03-14',
  to: '2026-03-15',
  total: 1840,
  totals: [
    { type: 'page_view', count: 1520 },
    { type: 'add_to_cart', count: 320 },
  ],
  days: [
    {
      date: '2026-03-14',
      total: 1840,
      types: [
        { type: 'page_view', count: 1520 },
        { type: 'add_to_cart', count: 320 },
      ],
    },
  ],
});

export const auditEntry = outputOf(auditEntrySchema, {
  id: ids.audit,
  occurredAt: '2026-03-02T08:20:00.000Z',
  action: 'api_key.created',
  outcome: 'success',
  reason: null,
  actor: { type: 'user', id: ids.user, name: 'Grace Hopper', email: 'grace.hopper@example.com' },
  target: { type: 'apiKey', id: ids.apiKey, href: '/console/api-keys' },
  requestId: ids.request,
});

export const walletBranding = outputOf(brandingSchema, {
  backgroundColor: '#1f3a5f',
  foregroundColor: '#ffffff',
  labelColor: '#c9d6e8',
  logoPng: null,
  updatedAt: '2026-03-04T09:00:00.000Z',
});

export const exportJob = outputOf(exportJobSchema, {
  id: ids.export,
  status: 'completed',
  rowCount: 5230,
  createdAt: '2026-03-19T02:00:00.000Z',
  completedAt: '2026-03-19T02:01:12.000Z',
  error: null,
});

export const operationalExportJob = outputOf(operationalJobSchema, {
  ...exportJob,
  id: 'exp_01jpz8x2c4e6g8j0m2p4s6v8yz',
  status: 'pending',
  rowCount: null,
  createdAt: at.now,
  completedAt: null,
  entity: 'members',
  format: 'csv',
  capped: false,
  scheduleId: null,
  fileExpiresAt: null,
});

export const exportSchedule = outputOf(exportScheduleSchema, {
  id: ids.schedule,
  entity: 'orders',
  format: 'jsonl',
  frequency: 'weekly',
  weekday: 'monday',
  hour: 6,
  timezone: 'Europe/Berlin',
  webhookUrl: 'https://hooks.example.com/exports',
  lastPeriod: null,
  lastJobId: null,
  createdAt: '2026-03-04T09:00:00.000Z',
});
