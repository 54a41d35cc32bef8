import { beforeAll, describe, expect, it } from 'vitest';
import { routeKey, routes } from '../../shared/http/declarations';
import { SCOPES } from '../../shared/platform/contract/scopes';
import { call, createKey } from '../support/api';
import { newMember, newOrder, tenant, type Tenant } from '../support/fixtures';

/**
 * Every API-key route of the route table, twice: with a key that lacks its scope (403 naming it)
 * and, where it names an object, with another workspace's key on this workspace's object (404).
 */
interface World {
  a: Tenant;
  b: Tenant;
  ids: {
    memberId: string;
    storeId: string;
    externalOrderId: string;
    keyId: string;
    endpointId: string;
    recordId: string;
    productId: string;
    poolId: string;
    couponId: string;
    couponCode: string;
    campaignId: string;
    rewardId: string;
    redemptionId: string;
    importId: string;
  };
}

let world: World;

beforeAll(async () => {
  const [a, b] = await Promise.all([tenant('matrix-a'), tenant('matrix-b')]);
  const member = await newMember(a.key);
  const store = await call('POST', '/api/v2/stores', { token: a.key, body: { name: 'A store' } });
  const order = await newOrder(a.key, member.id, { storeId: store.body.data.id });
  const key = await createKey(a.token, { name: 'victim', preset: 'read-only' });
  const endpoint = await call('POST', '/api/v2/webhooks', { token: a.key, body: { url: 'https://hooks.example.com/a', eventTypes: ['member.created'] } });
  const type = { label: 'Secret', status: 'published', apiVisible: true, fields: [{ key: 'title', type: 'text', required: true }] };
  expect((await call('PUT', '/api/flash/objects/types/secret_thing', { token: a.token, body: type })).status).toBe(200);
  const record = await call('POST', '/api/v2/objects/secret_thing/records', { token: a.key, body: { data: { title: 'A only' } } });
  const imported = await call('POST', '/api/v2/catalog/import', { token: a.key, body: { products: [{ sku: 'A-1', name: 'A product' }] } });
  const pool = await call('POST', '/api/v2/coupons/pools', {
    token: a.key,
    body: { name: 'A pool', discount: { type: 'percent', value: 10 }, codeConfig: { mode: 'generated' }, stock: 5 },
  });
  const coupon = await call('POST', '/api/v2/coupons/issue', { token: a.key, body: { poolId: pool.body.data.id, memberId: member.id } });
  expect(coupon.status).toBe(201);
  const campaign = await call('POST', '/api/flash/campaigns', {
    token: a.token,
    body: {
      name: 'A campaign',
      trigger: { type: 'order' },
      conditions: [{ field: 'order.total', op: 'gte', value: 1 }],
      effect: { type: 'bonus_points', points: 5 },
    },
  });
  expect(campaign.status).toBe(201);
  const reward = await call('POST', '/api/v2/rewards', {
    token: a.key,
    body: { name: 'A reward', pointsCost: 5, benefit: { type: 'free_shipping' }, status: 'active' },
  });
  expect(reward.status).toBe(201);
  await call('POST', `/api/v2/members/${member.id}/points`, { token: a.key, body: { type: 'earn', amount: 5, reason: 'x' } });
  const redemption = await call('POST', `/api/v2/rewards/${reward.body.data.id}/redemptions`, { token: a.key, body: { memberId: member.id } });
  expect(redemption.status).toBe(201);
  const importJob = await call('POST', '/api/v2/imports', { token: a.key, body: { kind: 'members', format: 'jsonl' } });
  expect(importJob.status).toBe(201);
  world = {
    a,
    b,
    ids: {
      memberId: member.id,
      storeId: store.body.data.id,
      externalOrderId: order.externalOrderId,
      keyId: key.id,
      endpointId: endpoint.body.data.id,
      recordId: record.body.data.id,
      productId: imported.body.data.results[0].productId,
      poolId: pool.body.data.id,
      couponId: coupon.body.data.id,
      importId: importJob.body.data.id,
      couponCode: coupon.body.data.code,
      campaignId: campaign.body.data.id,
      rewardId: reward.body.data.id,
      redemptionId: redemption.body.data.id,
    },
  };
});

/** Requests that name workspace A's objects, valid in every other respect. */
const FOREIGN: Record<string, (ids: World['ids']) => { path: string; body?: unknown }> = {
  'DELETE /api/v2/api-keys/{id}': (i) => ({ path: `/api/v2/api-keys/${i.keyId}` }),
  'GET /api/v2/stores/{id}': (i) => ({ path: `/api/v2/stores/${i.storeId}` }),
  'PATCH /api/v2/stores/{id}': (i) => ({ path: `/api/v2/stores/${i.storeId}`, body: { name: 'stolen' } }),
  'GET /api/v2/members/{id}': (i) => ({ path: `/api/v2/members/${i.memberId}` }),
  'PATCH /api/v2/members/{id}': (i) => ({ path: `/api/v2/members/${i.memberId}`, body: { firstName: 'Mallory' } }),
  'GET /api/v2/members/{id}/points': (i) => ({ path: `/api/v2/members/${i.memberId}/points` }),
  'POST /api/v2/members/{id}/points': (i) => ({ path: `/api/v2/members/${i.memberId}/points`, body: { type: 'earn', amount: 5, reason: 'x' } }),
  // An entry id of A's member's ledger is not needed: B's key finds neither the member nor any entry.
  'POST /api/v2/members/{id}/ledger/{entryId}/reverse': (i) => ({
    path: `/api/v2/members/${i.memberId}/ledger/ple_01jpz8m2b4c6d8e0f2g4h6j8kp/reverse`,
    body: { reason: 'x' },
  }),
  'GET /api/v2/members/{id}/tier': (i) => ({ path: `/api/v2/members/${i.memberId}/tier` }),
  'GET /api/v2/members/{id}/explain': (i) => ({ path: `/api/v2/members/${i.memberId}/explain` }),
  'GET /api/v2/members/{id}/receipts': (i) => ({ path: `/api/v2/members/${i.memberId}/receipts` }),
  'POST /api/v2/orders/{externalOrderId}/refund': (i) => ({ path: `/api/v2/orders/${i.externalOrderId}/refund`, body: { amount: 1 } }),
  'PATCH /api/v2/webhooks/{id}': (i) => ({ path: `/api/v2/webhooks/${i.endpointId}`, body: { description: 'stolen' } }),
  'DELETE /api/v2/webhooks/{id}': (i) => ({ path: `/api/v2/webhooks/${i.endpointId}` }),
  'GET /api/v2/webhooks/{id}/deliveries': (i) => ({ path: `/api/v2/webhooks/${i.endpointId}/deliveries` }),
  'POST /api/v2/webhooks/{id}/deliveries/{deliveryId}/replay': (i) => ({
    path: `/api/v2/webhooks/${i.endpointId}/deliveries/dlv_0123456789abcdefghjkmnpqrs/replay`,
  }),
  'POST /api/v2/webhooks/{id}/test': (i) => ({ path: `/api/v2/webhooks/${i.endpointId}/test` }),
  'POST /api/v2/webhooks/{id}/deliveries/replay-dead': (i) => ({ path: `/api/v2/webhooks/${i.endpointId}/deliveries/replay-dead` }),
  'GET /api/v2/objects/{type}': () => ({ path: '/api/v2/objects/secret_thing' }),
  'GET /api/v2/objects/{type}/records': () => ({ path: '/api/v2/objects/secret_thing/records' }),
  'POST /api/v2/objects/{type}/records': () => ({ path: '/api/v2/objects/secret_thing/records', body: { data: { title: 'B was here' } } }),
  'GET /api/v2/objects/{type}/records/{recordId}': (i) => ({ path: `/api/v2/objects/secret_thing/records/${i.recordId}` }),
  'PATCH /api/v2/objects/{type}/records/{recordId}': (i) => ({
    path: `/api/v2/objects/secret_thing/records/${i.recordId}`,
    body: { data: { title: 'stolen' } },
  }),
  'DELETE /api/v2/objects/{type}/records/{recordId}': (i) => ({ path: `/api/v2/objects/secret_thing/records/${i.recordId}` }),
  'GET /api/v2/products/{id}': (i) => ({ path: `/api/v2/products/${i.productId}` }),
  'GET /api/v2/members/{id}/tags': (i) => ({ path: `/api/v2/members/${i.memberId}/tags` }),
  'POST /api/v2/members/{id}/tags': (i) => ({ path: `/api/v2/members/${i.memberId}/tags`, body: { tags: ['stolen'] } }),
  'DELETE /api/v2/members/{id}/tags/{tagKey}': (i) => ({ path: `/api/v2/members/${i.memberId}/tags/vip` }),
  'POST /api/v2/ambassador/members/{id}/issue-code': (i) => ({ path: `/api/v2/ambassador/members/${i.memberId}/issue-code`, body: {} }),
  // Data-subject export and erasure
  'GET /api/v2/members/{id}/personal-data': (i) => ({ path: `/api/v2/members/${i.memberId}/personal-data` }),
  'POST /api/v2/members/{id}/erasure': (i) => ({ path: `/api/v2/members/${i.memberId}/erasure` }),
  'POST /api/v2/coupons/{id}/redeem': (i) => ({ path: `/api/v2/coupons/${i.couponId}/redeem`, body: {} }),
  'GET /api/v2/members/{id}/coupons': (i) => ({ path: `/api/v2/members/${i.memberId}/coupons` }),
  'POST /api/v2/members/{id}/redeem-coupon': (i) => ({ path: `/api/v2/members/${i.memberId}/redeem-coupon`, body: { code: i.couponCode } }),
  'POST /api/v2/members/{id}/portal-sessions': (i) => ({ path: `/api/v2/members/${i.memberId}/portal-sessions` }),
  // Objects named in the body, not the path:
  'POST /api/v2/coupons/issue': (i) => ({ path: '/api/v2/coupons/issue', body: { poolId: i.poolId, memberId: i.memberId } }),
  'GET /api/flash/campaigns/{id}': (i) => ({ path: `/api/flash/campaigns/${i.campaignId}` }),
  'PATCH /api/flash/campaigns/{id}': (i) => ({ path: `/api/flash/campaigns/${i.campaignId}`, body: { name: 'stolen' } }),
  'DELETE /api/flash/campaigns/{id}': (i) => ({ path: `/api/flash/campaigns/${i.campaignId}` }),
  'POST /api/flash/campaigns/simulate': (i) => ({
    path: '/api/flash/campaigns/simulate',
    body: { order: { total: 10, currency: 'EUR' }, memberId: i.memberId },
  }),
  'GET /api/v2/rewards/{id}': (i) => ({ path: `/api/v2/rewards/${i.rewardId}` }),
  'PATCH /api/v2/rewards/{id}': (i) => ({ path: `/api/v2/rewards/${i.rewardId}`, body: { name: 'stolen' } }),
  'POST /api/v2/rewards/{id}/redemptions': (i) => ({ path: `/api/v2/rewards/${i.rewardId}/redemptions`, body: { memberId: i.memberId } }),
  'GET /api/v2/members/{id}/redemptions': (i) => ({ path: `/api/v2/members/${i.memberId}/redemptions` }),
  'POST /api/v2/redemptions/{id}/void': (i) => ({ path: `/api/v2/redemptions/${i.redemptionId}/void` }),
  'POST /api/v2/redemptions/{id}/use': (i) => ({ path: `/api/v2/redemptions/${i.redemptionId}/use`, body: { externalOrderId: 'STOLEN-1' } }),
  'GET /api/v2/imports/{id}': (i) => ({ path: `/api/v2/imports/${i.importId}` }),
  'POST /api/v2/imports/{id}/preview': (i) => ({ path: `/api/v2/imports/${i.importId}/preview` }),
  'POST /api/v2/imports/{id}/apply': (i) => ({ path: `/api/v2/imports/${i.importId}/apply` }),
  'POST /api/v2/imports/{id}/undo': (i) => ({ path: `/api/v2/imports/${i.importId}/undo` }),
  'POST /api/v2/orders': (i) => ({
    path: '/api/v2/orders',
    body: { externalOrderId: `X-${Date.now()}`, memberId: i.memberId, currency: 'EUR', total: 10, occurredAt: '2026-11-01T10:00:00Z' },
  }),
};

/** Routes that name no object of a workspace: lists (scoped by the key) and creates. */
const NO_FOREIGN_OBJECT = new Set([
  'GET /api/flash/campaigns',
  'POST /api/flash/campaigns',
  'POST /api/v2/api-keys',
  'GET /api/v2/api-keys',
  'GET /api/v2/stores',
  'POST /api/v2/stores',
  'GET /api/v2/members',
  'POST /api/v2/members',
  'POST /api/v2/members/batch',
  'GET /api/v2/orders',
  'POST /api/v2/orders/batch',
  'POST /api/v2/webhooks',
  'GET /api/v2/webhooks',
  'POST /api/v2/webhooks/trigger',
  'GET /api/v2/events/catalog',
  'GET /api/v2/objects',
  'GET /api/v2/products',
  'GET /api/v2/categories',
  'GET /api/v2/brands',
  'POST /api/v2/catalog/import',
  'GET /api/v2/tags',
  'POST /api/v2/captures',
  'GET /api/v2/coupons',
  'GET /api/v2/coupons/pools',
  'POST /api/v2/coupons/pools',
  'GET /api/v2/rewards',
  'POST /api/v2/rewards',
  // Names a redemption in its body, and answers one of another workspace as `applies: false, reason: NOT_FOUND` (rewards-checkout.test.ts).
  'POST /api/v2/rewards/validate',
  'GET /api/v2/ambassador/candidates',
  'GET /api/v2/ambassador/metrics',
  'POST /api/v2/tracking/events',
  'GET /api/v2/tracking/stats',
  'POST /api/v2/imports',
  'GET /api/v2/imports',
]);

const keyed = routes.filter((r) => r.auth.includes('apiKey'));

describe('route matrix', () => {
  it('classifies every API-key route', () => {
    for (const r of keyed) expect(FOREIGN[routeKey(r)] !== undefined || NO_FOREIGN_OBJECT.has(routeKey(r)), routeKey(r)).toBe(true);
  });

  it.each(keyed.map((r) => [routeKey(r), r] as const))('%s: a key without its scope gets 403 naming it', async (_, route) => {
    const others = SCOPES.filter((s) => s !== route.scope);
    const key = await createKey(world.a.token, { name: 'lacking', scopes: others });
    const path = FOREIGN[routeKey(route)]?.(world.ids).path ?? route.path.replace(/\{\w+\}/g, 'x');
    const res = await call(route.method, path, { token: key.key, body: route.method === 'GET' || route.method === 'DELETE' ? undefined : {} });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toContain(route.scope);
  });

  it.each(Object.keys(FOREIGN))("%s: another workspace's key gets 404 and changes nothing", async (key) => {
    const route = keyed.find((r) => routeKey(r) === key)!;
    const { path, body } = FOREIGN[key]!(world.ids);
    const before = await call('GET', `/api/v2/members/${world.ids.memberId}`, { token: world.a.key });
    const res = await call(route.method, path, { token: world.b.key, body });
    expect(res.status, JSON.stringify(res.body)).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
    const after = await call('GET', `/api/v2/members/${world.ids.memberId}`, { token: world.a.key });
    expect(after.body.data.points).toEqual(before.body.data.points);
    expect(after.body.data.firstName).toEqual(before.body.data.firstName);
    const endpoints = await call('GET', '/api/v2/webhooks', { token: world.a.key });
    expect(endpoints.body.data).toEqual([expect.objectContaining({ id: world.ids.endpointId, description: '' })]);
    const record = await call('GET', `/api/v2/objects/secret_thing/records/${world.ids.recordId}`, { token: world.a.key });
    expect(record.body.data.data).toEqual({ title: 'A only' });
    expect((await call('GET', '/api/v2/objects/secret_thing/records', { token: world.a.key })).body.total).toBe(1);
    const coupon = await call('GET', `/api/v2/members/${world.ids.memberId}/coupons`, { token: world.a.key });
    expect(coupon.body.data).toEqual([expect.objectContaining({ id: world.ids.couponId, status: 'issued' })]);
    const tags = await call('GET', `/api/v2/members/${world.ids.memberId}/tags`, { token: world.a.key });
    expect(tags.body.data.tags).toEqual([]);
  });

  it("lists never show another workspace's objects", async () => {
    for (const path of ['/api/v2/members', '/api/v2/stores', '/api/v2/orders', `/api/v2/orders?memberId=${world.ids.memberId}`]) {
      const res = await call('GET', path, { token: world.b.key });
      expect(res.status).toBe(200);
      expect(JSON.stringify(res.body)).not.toContain(world.ids.memberId);
      expect(JSON.stringify(res.body)).not.toContain(world.ids.storeId);
    }
  });
});
