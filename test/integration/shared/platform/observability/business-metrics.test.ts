import { randomUUID } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Principal } from '../../../../../shared/platform/contract/principal';
import { guardWrite } from '../../../../../shared/objects/rate-guard';
import { newId } from '../../../../../shared/platform/ids';
import { METRICS_NAMESPACE, METRICS_SERVICE } from '../../../../../shared/platform/observability/metric-catalog';
import { captureMetrics } from '../../../../../shared/platform/observability/metrics';
import { call } from '../../../../support/api';
import { balanceOf, newMember, orderId, tenant, type Tenant } from '../../../../support/fixtures';
import { inProcess } from '../../../../support/in-process';
import { metricOf, type EmittedMetric } from '../../../../support/metrics';
import { runtimeOf } from '../../../../support/platform';

/**
 * The business metrics of the request paths, each emitted exactly once per event, after its
 * commit, with its catalog dimensions; nothing on a refusal or a replay. The operations run in this
 * process (`inProcess`: the whole middy chain against the platform's DynamoDB Local), so the EMF
 * documents they write are captured here; fixtures are made through the running platform.
 */

beforeAll(async () => {
  const runtime = await runtimeOf(inject('dataDir'));
  Object.assign(process.env, {
    STAGE: 'local',
    TABLE_NAME: runtime.tableName,
    DYNAMODB_ENDPOINT: runtime.dynamodbEndpoint,
    AWS_REGION: 'eu-west-1',
  });
});

let stop: (() => void) | undefined;
afterEach(() => stop?.());

/** Captures the metrics emitted in this process from now on. */
function capture(): () => EmittedMetric[] {
  const c = captureMetrics();
  stop = c.stop;
  return () => c.documents().map(metricOf);
}
const named = (metrics: EmittedMetric[], name: string) => metrics.filter((m) => m.name === name);
/** The business metrics other than the per-request `ApiRequests`. */
const business = (metrics: EmittedMetric[]) => metrics.filter((m) => m.name !== 'ApiRequests');

describe('ApiRequests', () => {
  it('one per request, by operationId and outcome class, with the service dimension and namespace', async () => {
    const t = await tenant('bm-api');
    const emitted = capture();
    expect((await inProcess('GET', '/api/v2/members', { token: t.key })).status).toBe(200);
    expect((await inProcess('GET', `/api/v2/members/${newId('mbr')}`, { token: t.key })).status).toBe(404);
    expect((await inProcess('GET', '/api/v2/members', { token: 'fl_live_nope' })).status).toBe(401);
    expect(named(emitted(), 'ApiRequests')).toEqual([
      {
        namespace: METRICS_NAMESPACE,
        name: 'ApiRequests',
        unit: 'Count',
        value: 1,
        dimensions: { service: METRICS_SERVICE, operation: 'listMembers', outcome: '2xx' },
      },
      {
        namespace: METRICS_NAMESPACE,
        name: 'ApiRequests',
        unit: 'Count',
        value: 1,
        dimensions: { service: METRICS_SERVICE, operation: 'getMember', outcome: '4xx' },
      },
      {
        namespace: METRICS_NAMESPACE,
        name: 'ApiRequests',
        unit: 'Count',
        value: 1,
        dimensions: { service: METRICS_SERVICE, operation: 'listMembers', outcome: '4xx' },
      },
    ]);
  });
});

describe('orders, points and refunds', () => {
  let t: Tenant;
  let memberId: string;
  beforeAll(async () => {
    t = await tenant('bm-orders');
    memberId = (await newMember(t.key)).id;
  });

  it('an order: OrdersRecorded 1 and PointsEarned by the points credited; its idempotent replay and a repeated externalOrderId emit nothing', async () => {
    const before = (await balanceOf(t.key, memberId)).balance;
    const body = { externalOrderId: orderId('BM'), memberId, currency: 'EUR', total: 120, occurredAt: '2026-11-01T10:00:00Z' };
    const headers = { 'idempotency-key': randomUUID() };
    const emitted = capture();
    expect((await inProcess('POST', '/api/v2/orders', { token: t.key, body, headers })).status).toBe(201);
    const earned = (await balanceOf(t.key, memberId)).balance - before;
    expect(earned).toBeGreaterThan(0);
    const first = business(emitted());
    expect(first.map((m) => [m.name, m.value, m.dimensions]).sort()).toEqual(
      [
        ['OrdersRecorded', 1, { service: METRICS_SERVICE }],
        ['PointsEarned', earned, { service: METRICS_SERVICE }],
      ].sort(),
    );
    const replay = await inProcess('POST', '/api/v2/orders', { token: t.key, body, headers });
    expect(replay.status).toBe(201);
    const repeat = await inProcess('POST', '/api/v2/orders', { token: t.key, body });
    expect(repeat.status).toBeLessThan(300);
    expect(business(emitted())).toEqual(first);
  });

  it('a deduction: PointsDeducted by its amount (and its audit entry); one over the balance (refused) emits nothing', async () => {
    const emitted = capture();
    const ok = await inProcess('POST', `/api/v2/members/${memberId}/points`, { token: t.key, body: { type: 'deduct', amount: 7, reason: 'test' } });
    expect(ok.status).toBe(201);
    const refused = await inProcess('POST', `/api/v2/members/${memberId}/points`, {
      token: t.key,
      body: { type: 'deduct', amount: 10_000_000, reason: 'too much' },
    });
    expect(refused.status).toBe(409);
    // A manual change made with a key is audited (decision 0092): one entry, for the change that happened.
    expect(business(emitted()).map((m) => [m.name, m.value])).toEqual([
      ['PointsDeducted', 7],
      ['AuditWrites', 1],
    ]);
  });

  it('a refund: Refunds 1 and PointsDeducted by the points it reversed; a refund over the remainder emits nothing', async () => {
    const externalOrderId = orderId('BMR');
    const created = await call('POST', '/api/v2/orders', {
      token: t.key,
      body: { externalOrderId, memberId, currency: 'EUR', total: 200, occurredAt: '2026-11-01T10:00:00Z' },
    });
    expect(created.status).toBe(201);
    const emitted = capture();
    const refund = await inProcess('POST', `/api/v2/orders/${externalOrderId}/refund`, { token: t.key, body: { amount: 50 } });
    expect(refund.status, JSON.stringify(refund.body)).toBe(200);
    const reversed = refund.body.data.refund.pointsReversed as number;
    expect(reversed).toBeGreaterThan(0);
    expect((await inProcess('POST', `/api/v2/orders/${externalOrderId}/refund`, { token: t.key, body: { amount: 5000 } })).status).toBe(409);
    expect(
      business(emitted())
        .map((m) => [m.name, m.value])
        .sort(),
    ).toEqual(
      [
        ['PointsDeducted', reversed],
        ['Refunds', 1],
      ].sort(),
    );
  });
});

describe('coupons', () => {
  it('CouponsIssued and CouponsRedeemed once each; a second redemption (refused) emits nothing', async () => {
    const t = await tenant('bm-coupons');
    const member = await newMember(t.key);
    const pool = await call('POST', '/api/v2/coupons/pools', {
      token: t.key,
      body: { name: 'Metrics', discount: { type: 'percent', value: 10 }, codeConfig: { mode: 'generated' }, stock: 10 },
    });
    expect(pool.status).toBe(201);
    const emitted = capture();
    const issued = await inProcess('POST', '/api/v2/coupons/issue', { token: t.key, body: { poolId: pool.body.data.id, memberId: member.id } });
    expect(issued.status).toBe(201);
    expect((await inProcess('POST', `/api/v2/coupons/${issued.body.data.id}/redeem`, { token: t.key, body: {} })).status).toBe(200);
    expect((await inProcess('POST', `/api/v2/coupons/${issued.body.data.id}/redeem`, { token: t.key, body: {} })).status).toBe(409);
    expect(business(emitted()).map((m) => [m.name, m.value])).toEqual([
      ['CouponsIssued', 1],
      ['CouponsRedeemed', 1],
    ]);
  });
});

describe('audit writes and MCP calls', () => {
  it('an audited change: AuditWrites 1 once committed; a refused one (422) emits nothing', async () => {
    const t = await tenant('bm-audit');
    const emitted = capture();
    const created = await inProcess('POST', '/api/v2/webhooks', { token: t.key, body: { url: 'https://example.com/hooks', eventTypes: ['member.created'] } });
    expect(created.status).toBe(201);
    expect((await inProcess('POST', '/api/v2/webhooks', { token: t.key, body: { url: 'https://example.com/hooks', eventTypes: ['nope'] } })).status).toBe(422);
    expect(business(emitted()).map((m) => [m.name, m.value])).toEqual([['AuditWrites', 1]]);
  });

  it('McpCalls by outcome, one per JSON-RPC message, each audited', async () => {
    const t = await tenant('bm-mcp');
    const emitted = capture();
    const res = await inProcess('POST', '/api/mcp', {
      token: t.key,
      body: [
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { jsonrpc: '2.0', id: 2, method: 'no/such-method' },
      ],
    });
    expect(res.status).toBe(200);
    const metrics = business(emitted());
    expect(
      named(metrics, 'McpCalls')
        .map((m) => m.dimensions.outcome)
        .sort(),
    ).toEqual(['invalid', 'ok']);
    expect(named(metrics, 'McpCalls').every((m) => m.value === 1 && m.dimensions.service === METRICS_SERVICE)).toBe(true);
    expect(named(metrics, 'AuditWrites')).toHaveLength(2);
  });
});

describe('write-guard refusals', () => {
  const principal = (): Principal => ({ kind: 'apiKey', workspaceId: newId('ws'), keyId: newId('key'), scopes: ['objects:write'] });
  const settings = { perSecond: 1, burst: 1, windowSeconds: 10, timeoutMs: 10_000 };
  const now = new Date(Math.ceil(Date.now() / 10_000) * 10_000 + 60_000);

  it('one WriteGuardRefusals per refused write (429), none for a write let through', async () => {
    const p = principal();
    const emitted = capture();
    await guardWrite(p, now, settings);
    await expect(guardWrite(p, now, settings)).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    expect(business(emitted()).map((m) => [m.name, m.value, m.dimensions])).toEqual([['WriteGuardRefusals', 1, { service: METRICS_SERVICE }]]);
  });

  it('and one for the fail-closed 503 when the guard cannot decide', async () => {
    const emitted = capture();
    const broken = { send: async () => Promise.reject(Object.assign(new Error('down'), { name: 'ServiceUnavailable' })) };
    await expect(guardWrite(principal(), now, settings, { client: broken as never })).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(business(emitted()).map((m) => m.name)).toEqual(['WriteGuardRefusals']);
  });
});
