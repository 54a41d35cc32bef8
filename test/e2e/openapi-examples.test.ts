import { beforeAll, describe, expect, it } from 'vitest';
import { ids, user } from '../../shared/http/examples/world';
import { call, uniqueEmail } from '../support/api';
import { tenant } from '../support/fixtures';

type Json = Record<string, any>;

/**
 * The documented examples, sent as they are to the running platform: read from the document it
 * serves, with only what the platform mints (ids, codes) or time moves (windows, event times) swapped
 * for this run's. The answers must be 2xx, and where the examples tell a story (points, tiers,
 * outcomes) the platform must tell the same.
 */

let doc: Json;
const opById = new Map<string, { method: string; path: string; op: Json }>();

beforeAll(async () => {
  doc = (await call('GET', '/api/v2/openapi.json')).body;
  for (const [path, item] of Object.entries(doc.paths as Json))
    for (const [method, op] of Object.entries(item as Json)) opById.set(op.operationId, { method: method.toUpperCase(), path, op });
});

const exampleOf = (holder: Json | undefined): any => {
  const first = Object.values((holder?.examples ?? {}) as Json)[0];
  if (!first) throw new Error('no example documented');
  return structuredClone(first.value);
};

/** A parameter's documented example: `example`, or the first of `examples` (optional query parameters, not pre-selected). */
const paramExample = (p: Json): unknown => p.example ?? (Object.values((p.examples ?? {}) as Json)[0] as Json | undefined)?.value;

/** The documented values replaced by this run's real ones (example -> real, as exact strings). */
function swapIds<T>(value: T, real: Map<string, string>): T {
  let text = JSON.stringify(value);
  for (const [example, actual] of real) text = text.split(example).join(actual);
  return JSON.parse(text) as T;
}

/** Sends an operation's documented request: its path and query parameter examples and its body example. */
async function sendExample(token: string | undefined, operationId: string, real: Map<string, string>) {
  const { method, path, op } = opById.get(operationId)!;
  const params = (op.parameters ?? []) as Json[];
  let url = path;
  for (const p of params.filter((p) => p.in === 'path')) {
    expect(p.example, `${operationId}: path parameter ${p.name} has an example`).toBeDefined();
    url = url.replace(`{${p.name}}`, encodeURIComponent(swapIds(String(p.example), real)));
  }
  const query = new URLSearchParams();
  for (const p of params.filter((p) => p.in === 'query' && paramExample(p) !== undefined)) query.set(p.name, swapIds(String(paramExample(p)), real));
  const body = op.requestBody ? swapIds(exampleOf(op.requestBody.content['application/json']), real) : undefined;
  const res = await call(method, query.size ? `${url}?${query}` : url, { token, body });
  expect(res.status, `${operationId}: ${JSON.stringify(res.body)}`).toBeGreaterThanOrEqual(200);
  expect(res.status, `${operationId}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return { status: res.status, body: res.body, documented: (status: number) => exampleOf(op.responses[String(status)].content['application/json']) };
}

describe('documented examples against the running platform', () => {
  it('enrol a member, award points, record an order, list and refund it, find her as an ambassador candidate: each documented request is accepted as documented', async () => {
    const t = await tenant('examples');
    const real = new Map<string, string>();

    const store = await sendExample(t.key, 'createStore', real);
    expect(store.status).toBe(201);
    real.set(ids.store, store.body.data.id);

    const created = await sendExample(t.key, 'createMember', real);
    expect(created.status).toBe(201);
    const { id: _id, createdAt: _c, updatedAt: _u, ...enrolled } = created.documented(201).data;
    expect(created.body.data).toMatchObject(enrolled);
    real.set(ids.member, created.body.data.id);

    const points = await sendExample(t.key, 'changeMemberPoints', real);
    expect(points.status).toBe(201);
    expect(points.body.data.points).toEqual(points.documented(201).data.points);
    expect(points.body.data.tier).toBe(points.documented(201).data.tier);

    const order = await sendExample(t.key, 'createOrder', real);
    expect(order.status).toBe(201);
    const documentedOrder = order.documented(201).data;
    expect(order.body.data).toMatchObject({
      externalOrderId: documentedOrder.externalOrderId,
      total: documentedOrder.total,
      points: documentedOrder.points,
      occurredAt: documentedOrder.occurredAt,
      memberId: real.get(ids.member),
      storeId: real.get(ids.store),
    });
    real.set(ids.order, order.body.data.id);

    // Sent again, the same order is the documented 200: recorded once, nothing awarded twice.
    const again = await sendExample(t.key, 'createOrder', real);
    expect(again.status).toBe(200);
    expect(again.body.duplicate).toBe(again.documented(200).duplicate);

    const listed = await sendExample(t.key, 'listOrders', real);
    expect(listed.body.data.map((o: Json) => o.id)).toEqual([real.get(ids.order)]);

    const member = await sendExample(t.key, 'getMember', real);
    expect(member.body.data.points).toEqual(member.documented(200).data.points);
    expect(member.body.data.orderCount).toBe(member.documented(200).data.orderCount);
    const ledger = await sendExample(t.key, 'getMemberPoints', real);
    expect(ledger.body.data.entries.map((e: Json) => [e.type, e.amount, e.balanceAfter])).toEqual(
      ledger.documented(200).data.entries.map((e: Json) => [e.type, e.amount, e.balanceAfter]),
    );
    const tier = await sendExample(t.key, 'getMemberTier', real);
    expect(tier.body.data).toEqual(tier.documented(200).data);

    // With 309 lifetime points (before the refund) Ada is an ambassador candidate by the documented threshold.
    const candidates = await sendExample(t.key, 'listAmbassadorCandidates', real);
    expect(candidates.body.data.map((c: Json) => [c.memberId, c.qualifiesBy])).toEqual([
      [real.get(ids.member), candidates.documented(200).data[0].qualifiesBy],
    ]);

    const refund = await sendExample(t.key, 'refundOrder', real);
    const documentedRefund = refund.documented(200).data;
    expect(refund.body.data.refund).toMatchObject({
      amount: documentedRefund.refund.amount,
      pointsReversed: documentedRefund.refund.pointsReversed,
      reason: documentedRefund.refund.reason,
    });
    expect(refund.body.data.order).toMatchObject({
      refundedTotal: documentedRefund.order.refundedTotal,
      refundStatus: documentedRefund.order.refundStatus,
      points: documentedRefund.order.points,
    });

    await sendExample(t.key, 'updateMember', real);
    await sendExample(t.key, 'listMembers', real);
    const tagged = await sendExample(t.key, 'tagMember', real);
    expect(tagged.body.data.tags.map((tag: Json) => tag.key).sort()).toEqual(['newsletter', 'vip']);
    await sendExample(t.key, 'listMemberReceipts', real);

    await sendExample(t.key, 'getStore', real);
    const stores = await sendExample(t.key, 'listStores', real);
    expect(stores.body.data.map((s: Json) => s.id)).toEqual([real.get(ids.store)]);
    const closed = await sendExample(t.key, 'updateStore', real);
    expect(closed.body.data.status).toBe(closed.documented(200).data.status);
  });

  it('upsert members and reconcile orders in batches: the documented outcomes', async () => {
    const t = await tenant('examples-batch');
    const real = new Map<string, string>();
    real.set(ids.store, (await sendExample(t.key, 'createStore', real)).body.data.id);
    real.set(ids.member, (await sendExample(t.key, 'createMember', real)).body.data.id);
    real.set(ids.order, (await sendExample(t.key, 'createOrder', real)).body.data.id);

    const upserted = await sendExample(t.key, 'upsertMembers', real);
    expect(upserted.body.data.summary).toEqual(upserted.documented(200).data.summary);
    expect(upserted.body.data.results.map((r: Json) => r.outcome)).toEqual(upserted.documented(200).data.results.map((r: Json) => r.outcome));

    const reconciled = await sendExample(t.key, 'reconcileOrders', real);
    const documented = reconciled.documented(200).data;
    expect(reconciled.body.data.summary).toEqual(documented.summary);
    expect(reconciled.body.data.results.map((r: Json) => [r.externalOrderId, r.outcome, r.pointsDelta])).toEqual(
      documented.results.map((r: Json) => [r.externalOrderId, r.outcome, r.pointsDelta]),
    );
  });

  it('import the catalog, find it with the documented filters; sign up a referred member; issue and redeem a coupon; track storefront events; define, write and filter custom objects', async () => {
    const t = await tenant('examples-more');
    const real = new Map<string, string>();
    real.set(ids.member, (await sendExample(t.key, 'createMember', real)).body.data.id);

    const imported = await sendExample(t.key, 'importCatalog', real);
    real.set(ids.product, imported.body.data.results[0].productId);
    expect(imported.body.data, JSON.stringify(imported.body.data)).toEqual(swapIds(imported.documented(200).data, real));
    const products = await sendExample(t.key, 'listProducts', real);
    expect(products.body.data.map((p: Json) => p.sku)).toEqual(products.documented(200).data.map((p: Json) => p.sku));
    const categories = await sendExample(t.key, 'listCategories', real);
    expect(categories.body.data.map((c: Json) => c.key)).toEqual(categories.documented(200).data.map((c: Json) => c.key));

    // Ada's referral code is minted by the platform; the documented one stands for it.
    const code = await sendExample(t.key, 'issueReferralCode', real);
    expect(code.status).toBe(201);
    real.set(code.documented(201).data.code, code.body.data.code);
    const capture = await sendExample(t.key, 'createCapture', real);
    expect(capture.status).toBe(201);
    const documentedCapture = capture.documented(201).data;
    expect(capture.body.data).toMatchObject({
      memberOutcome: documentedCapture.memberOutcome,
      referral: { outcome: documentedCapture.referral.outcome, referrerId: real.get(ids.member) },
    });

    // Ada spends 100 of her welcome points on a coupon and redeems the code at checkout.
    await sendExample(t.key, 'changeMemberPoints', real);
    const pool = await sendExample(t.key, 'createCouponPool', real);
    const { id: _pool, createdAt: _pc, validFrom: _vf, ...documentedPool } = pool.documented(201).data;
    expect(pool.body.data).toMatchObject(documentedPool);
    real.set(ids.pool, pool.body.data.id);
    const issued = await sendExample(t.key, 'issueCoupon', real);
    real.set(ids.coupon, issued.body.data.id);
    real.set(issued.documented(201).data.code, issued.body.data.code);
    expect(issued.body.data.code).toMatch(/^LOYAL-[0-9A-Z]{8}$/);
    const held = await sendExample(t.key, 'listCoupons', real);
    expect(held.body.data.map((c: Json) => c.id)).toEqual([issued.body.data.id]);
    const redeemed = await sendExample(t.key, 'redeemMemberCoupon', real);
    expect(redeemed.body.data).toMatchObject({ status: 'redeemed', redemption: redeemed.documented(200).data.redemption });
    const balance = await call('GET', `/api/v2/members/${real.get(ids.member)}`, { token: t.key });
    expect(balance.body.data.points.balance).toBe(250 - pool.documented(201).data.pointsCost);

    // Storefront events: the documented times are moved to this run's (events are accepted up to two years back).
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const tracked = opById.get('trackEvents')!.op;
    for (const [i, e] of (exampleOf(tracked.requestBody.content['application/json']).events as Json[]).entries())
      real.set(e.occurredAt, new Date(Date.now() - (2 - i) * 60_000).toISOString());
    const statsQuery = Object.fromEntries((opById.get('getTrackingStats')!.op.parameters as Json[]).map((p) => [p.name, paramExample(p)]));
    real.set(statsQuery.from, day(Date.now() - 86_400_000));
    real.set(statsQuery.to, day(Date.now() + 86_400_000));
    const events = await sendExample(t.key, 'trackEvents', real);
    expect(events.body.data.summary).toEqual(events.documented(200).data.summary);
    const stats = await sendExample(t.key, 'getTrackingStats', real);
    expect(stats.body.data.totals).toEqual([{ type: statsQuery.type, count: 1 }]);

    await sendExample(t.token, 'putObjectTypeDefinition', real);
    const record = await sendExample(t.key, 'createObjectRecord', real);
    expect(record.status).toBe(201);
    real.set(ids.record, record.body.data.id);
    const records = await sendExample(t.key, 'listObjectRecords', real);
    expect(records.body.data.map((r: Json) => r.id)).toEqual([record.body.data.id]);
    const updated = await sendExample(t.key, 'updateObjectRecord', real);
    expect(updated.body.data.data).toEqual(swapIds(updated.documented(200).data.data, real));
  });

  it('open a workspace, sign in, make an API key, set the rules, brand the cards and schedule an export, as documented', async () => {
    // The owner's documented e-mail is taken by whoever ran this before; a fresh one stands for it.
    const real = new Map<string, string>([[user.email, uniqueEmail('grace')]]);
    const registered = await sendExample(undefined, 'register', real);
    expect(registered.status).toBe(201);
    expect(registered.body.data.user).toMatchObject({ name: user.name, role: user.role });
    const login = await sendExample(undefined, 'login', real);
    const session: string = login.body.data.session.token;
    expect(session).toMatch(/^fl_sess_/);

    await sendExample(session, 'getProfile', real);
    const profile = await sendExample(session, 'updateProfile', real);
    expect(profile.body.data.user.name).toBe(profile.documented(200).data.user.name);

    const key = await sendExample(session, 'createApiKey', real);
    expect(key.body.data.scopes).toEqual(key.documented(201).data.scopes);
    expect(key.body.data.key).toMatch(/^fl_live_/);
    const keys = await sendExample(session, 'listApiKeys', real);
    expect(keys.body.data.map((k: Json) => k.name)).toEqual(keys.documented(200).data.map((k: Json) => k.name));

    const rules = await sendExample(session, 'putProgram', real);
    const { updatedAt: _at, ...documentedRules } = rules.documented(200).data;
    expect(rules.body.data).toMatchObject(documentedRules);

    const branding = await sendExample(session, 'putWalletBranding', real);
    const { updatedAt: _b, ...documentedBranding } = branding.documented(200).data;
    expect(branding.body.data).toMatchObject(documentedBranding);

    // A schedule that notifies a webhook signs with the workspace's export-signing secret: made first.
    await sendExample(session, 'rotateExportSigningSecret', real);
    const schedule = await sendExample(session, 'createExportSchedule', real);
    const { id: _id, createdAt: _c, ...documentedSchedule } = schedule.documented(201).data;
    expect(schedule.body.data).toMatchObject(documentedSchedule);
    await sendExample(session, 'listExportSchedules', real);

    await sendExample(session, 'getProgram', real);
    // The audit trail shows the key the owner made, filtered as documented.
    real.set(user.id, registered.body.data.user.id);
    // The documented window is in the example's past; this run's entries are now.
    const documentedQuery = Object.fromEntries((opById.get('listAuditEntries')!.op.parameters as Json[]).map((p) => [p.name, paramExample(p)]));
    real.set(documentedQuery.from, new Date(Date.now() - 3_600_000).toISOString());
    real.set(documentedQuery.to, new Date(Date.now() + 3_600_000).toISOString());
    const audit = await sendExample(session, 'listAuditEntries', real);
    expect(audit.body.data.map((e: Json) => [e.action, e.target.id])).toEqual([['api_key.created', key.body.data.id]]);
  });
});
