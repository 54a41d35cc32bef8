import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call, uniqueEmail, type ApiResponse } from '../support/api';
import { newMember, orderId, tenant, type Tenant } from '../support/fixtures';

/**
 * Sixteen identical requests at once with one Idempotency-Key, on the routes answered outside a
 * single domain transaction (batches) and on captures: one effect, one answer. Every answer is the
 * first request's answer (replayed) or a 409 IDEMPOTENCY_KEY_IN_USE, and a later retry replays it.
 */

const N = 16;

async function race(t: Tenant, path: string, body: unknown): Promise<{ first: ApiResponse; all: ApiResponse[]; key: string }> {
  const key = `race-${randomUUID()}`;
  const all = await Promise.all(Array.from({ length: N }, () => call('POST', path, { token: t.key, body, headers: { 'idempotency-key': key } })));
  const inUse = all.filter((r) => r.status === 409);
  for (const r of inUse) {
    expect(r.body.error.code).toBe('IDEMPOTENCY_KEY_IN_USE');
    expect(r.headers.get('retry-after')).toBe('1');
  }
  const answered = all.filter((r) => r.status !== 409);
  const originals = answered.filter((r) => r.headers.get('idempotent-replayed') !== 'true');
  expect(originals, 'exactly one request ran').toHaveLength(1);
  const first = originals[0]!;
  expect(first.status, JSON.stringify(first.body)).toBeLessThan(300);
  for (const r of answered) {
    expect(r.status).toBe(first.status);
    expect(r.body).toEqual(first.body);
  }
  const later = await call('POST', path, { token: t.key, body, headers: { 'idempotency-key': key } });
  expect(later.status).toBe(first.status);
  expect(later.headers.get('idempotent-replayed')).toBe('true');
  expect(later.body).toEqual(first.body);
  return { first, all, key };
}

const count = async (t: Tenant, path: string): Promise<number> => (await call('GET', path, { token: t.key })).body.data.length;

describe('Idempotency-Key under concurrent duplicates', () => {
  it('/members/batch: one effect, one answer', async () => {
    const t = await tenant('race-members');
    const items = [
      { email: uniqueEmail('race'), firstName: 'Ada' },
      { externalId: `EXT-${randomUUID()}`, email: uniqueEmail('race2') },
    ];
    const { first } = await race(t, '/api/v2/members/batch', { members: items });
    expect(first.body.data.summary).toEqual({ created: 2, updated: 0, unchanged: 0, failed: 0 });
    expect(await count(t, '/api/v2/members?limit=200')).toBe(2);
  });

  it('/orders/batch: one effect, one answer', async () => {
    const t = await tenant('race-orders');
    const m = await newMember(t.key);
    const orders = [{ externalOrderId: orderId('RACE'), memberId: m.id, currency: 'EUR', total: 40, status: 'completed', occurredAt: '2026-11-01T10:00:00Z' }];
    const { first } = await race(t, '/api/v2/orders/batch', { orders });
    expect(first.body.data.summary).toMatchObject({ created: 1, failed: 0 });
    expect(await count(t, '/api/v2/orders?limit=100')).toBe(1);
  });

  it('/tracking/events: one effect, one answer', async () => {
    const t = await tenant('race-tracking');
    const m = await newMember(t.key);
    const events = [{ eventId: `evt-${randomUUID()}`, memberId: m.id, type: 'page.viewed', occurredAt: new Date(Date.now() - 60_000).toISOString() }];
    const { first } = await race(t, '/api/v2/tracking/events', { events });
    expect(first.body.data.summary).toEqual({ accepted: 1, duplicate: 0, failed: 0 });
    const stats = await call('GET', '/api/v2/tracking/stats', { token: t.key });
    expect(stats.body.data.total).toBe(1);
  });

  it('/catalog/import: one effect, one answer', async () => {
    const t = await tenant('race-catalog');
    const products = [{ sku: 'RACE-1', name: 'Racer', category: { key: 'shoes', name: 'Shoes' } }];
    const { first } = await race(t, '/api/v2/catalog/import', { products });
    expect(first.body.data.summary).toMatchObject({ created: 1, failed: 0 });
    const listed = (await call('GET', '/api/v2/products', { token: t.key })).body.data;
    expect(listed).toHaveLength(1);
    expect(listed[0].version ?? 1).toBe(1);
  });

  it('/captures: one effect, one answer', async () => {
    const t = await tenant('race-captures');
    const { first } = await race(t, '/api/v2/captures', { email: uniqueEmail('lead'), source: 'footer_form', consents: { marketingEmail: true } });
    expect(first.body.data.duplicate).toBe(false);
    expect(await count(t, '/api/v2/members?limit=200')).toBe(1);
  });

  it('identical concurrent upserts without a key never fail as CONFLICT', async () => {
    const t = await tenant('race-upsert');
    const members = [{ email: uniqueEmail('same'), externalId: `EXT-${randomUUID()}`, firstName: 'Grace' }];
    const all = await Promise.all(Array.from({ length: N }, () => call('POST', '/api/v2/members/batch', { token: t.key, body: { members } })));
    for (const r of all) {
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.data.summary.failed, JSON.stringify(r.body.data.results)).toBe(0);
    }
    expect(all.filter((r) => r.body.data.summary.created === 1)).toHaveLength(1);
    expect(await count(t, '/api/v2/members?limit=200')).toBe(1);
  });
});
