import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { call, createKey } from '../support/api';
import { balanceOf, newMember, tenant } from '../support/fixtures';
import { eventually, startReceiver } from '../support/receiver';

const createPool = (key: string, body: Record<string, unknown>, headers?: Record<string, string>) =>
  call('POST', '/api/v2/coupons/pools', { token: key, body, headers });
const issue = (key: string, body: Record<string, unknown>, headers?: Record<string, string>) =>
  call('POST', '/api/v2/coupons/issue', { token: key, body, headers });
const redeem = (key: string, couponId: string, body: Record<string, unknown> = {}, headers?: Record<string, string>) =>
  call('POST', `/api/v2/coupons/${couponId}/redeem`, { token: key, body, headers });
const redeemByCode = (key: string, memberId: string, body: Record<string, unknown>, headers?: Record<string, string>) =>
  call('POST', `/api/v2/members/${memberId}/redeem-coupon`, { token: key, body, headers });

const generated = (over: Record<string, unknown> = {}) => ({
  name: 'Summer 15%',
  discount: { type: 'percent', value: 15 },
  codeConfig: { mode: 'generated', prefix: 'SUM-' },
  stock: 100,
  ...over,
});

async function newPool(key: string, over: Record<string, unknown> = {}): Promise<any> {
  const res = await createPool(key, generated(over));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

async function poolOf(key: string, poolId: string): Promise<any> {
  const res = await call('GET', '/api/v2/coupons/pools?limit=200', { token: key });
  expect(res.status).toBe(200);
  return res.body.data.find((p: { id: string }) => p.id === poolId);
}

async function allCoupons(key: string, query: string): Promise<any[]> {
  const out: any[] = [];
  let cursor: string | null = null;
  do {
    const page: any = await call('GET', `/api/v2/coupons?limit=200&${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { token: key });
    expect(page.status).toBe(200);
    out.push(...page.body.data);
    cursor = page.body.nextCursor;
  } while (cursor);
  return out;
}

const statuses = (results: { status: number }[]) => results.map((r) => r.status).sort();

describe('coupon pools', () => {
  it('creates generated and list pools and lists them with issued, redeemed and remaining counts', async () => {
    const t = await tenant('pools');
    const res = await createPool(
      t.key,
      generated({ validFrom: '2020-01-01T00:00:00+02:00', validUntil: '2099-01-01T00:00:00Z', perMemberLimit: 3, pointsCost: 50 }),
    );
    expect(res.status).toBe(201);
    const gen = res.body.data;
    expect(gen.id).toMatch(/^cpl_/);
    expect(gen).toMatchObject({
      name: 'Summer 15%',
      discount: { type: 'percent', value: 15 },
      codeConfig: { mode: 'generated', prefix: 'SUM-', length: 8 },
      stock: 100,
      issued: 0,
      redeemed: 0,
      remaining: 100,
      validFrom: '2019-12-31T22:00:00.000Z',
      validUntil: '2099-01-01T00:00:00.000Z',
      perMemberLimit: 3,
      pointsCost: 50,
      active: true,
      status: 'active',
    });
    const list = await createPool(t.key, {
      name: 'Partner codes',
      discount: { type: 'fixed', amount: 5, currency: 'EUR' },
      codeConfig: { mode: 'list', codes: ['PARTNER-001', 'PARTNER-002', 'PARTNER-003'] },
    });
    expect(list.status).toBe(201);
    expect(list.body.data).toMatchObject({
      codeConfig: { mode: 'list', count: 3 },
      stock: 3,
      remaining: 3,
      perMemberLimit: null,
      pointsCost: null,
      validFrom: null,
      validUntil: null,
    });
    expect(JSON.stringify(list.body.data)).not.toContain('PARTNER-001');
    const free = await newPool(t.key, { discount: { type: 'free_item', sku: 'COFFEE' }, codeConfig: { mode: 'generated', length: 12 }, stock: 5 });
    expect(free.codeConfig).toEqual({ mode: 'generated', prefix: null, length: 12 });

    const pools = await call('GET', '/api/v2/coupons/pools', { token: t.key });
    expect(pools.status).toBe(200);
    expect(pools.body.data.map((p: { id: string }) => p.id)).toEqual([free.id, list.body.data.id, gen.id]);
    const page1 = await call('GET', '/api/v2/coupons/pools?limit=2', { token: t.key });
    expect(page1.body.data).toHaveLength(2);
    const page2 = await call('GET', `/api/v2/coupons/pools?limit=2&cursor=${encodeURIComponent(page1.body.nextCursor)}`, { token: t.key });
    expect(page2.body.data.map((p: { id: string }) => p.id)).toEqual([gen.id]);
    expect(page2.body.nextCursor).toBeNull();
  });

  it('validates the pool and writes nothing on failure', async () => {
    const t = await tenant('pool-val');
    const cases: [Record<string, unknown>, string[]][] = [
      [generated({ stock: undefined }), ['stock']],
      [generated({ discount: { type: 'percent', value: 0 } }), ['discount.value']],
      [generated({ discount: { type: 'fixed', amount: 5.555, currency: 'EUR' } }), ['discount.amount']],
      [generated({ discount: { type: 'cashback' } }), ['discount.type']],
      [generated({ validFrom: '2027-01-01T00:00:00Z', validUntil: '2026-01-01T00:00:00Z' }), ['validUntil']],
      [generated({ codeConfig: { mode: 'generated', length: 3 } }), ['codeConfig.length']],
      [generated({ codeConfig: { mode: 'list', codes: ['ABC-1', 'abc-1', 'no spaces'] }, stock: undefined }), ['codeConfig.codes.1', 'codeConfig.codes.2']],
      [generated({ codeConfig: { mode: 'list', codes: ['ABC-1', 'ABC-2'] }, stock: 5 }), ['stock']],
      [generated({ name: '', perMemberLimit: 0, pointsCost: -1, colour: 'red' }), ['colour', 'name', 'perMemberLimit', 'pointsCost']],
    ];
    for (const [body, fields] of cases) {
      const res = await createPool(t.key, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
      expect(res.body.error.details.map((d: { field: string }) => d.field).sort(), JSON.stringify(body)).toEqual(fields);
    }
    expect((await call('GET', '/api/v2/coupons/pools', { token: t.key })).body.data).toEqual([]);
    // The codes of the refused list pools were not reserved.
    const ok = await createPool(t.key, generated({ codeConfig: { mode: 'list', codes: ['abc-1', 'ABC-2'] }, stock: undefined }));
    expect(ok.status).toBe(201);
  });

  it('an uploaded code already used in the workspace is 409; nothing of that pool stays reserved', async () => {
    const t = await tenant('pool-dup');
    const other = await tenant('pool-dup-other');
    await newPool(t.key, { codeConfig: { mode: 'list', codes: ['TAKEN-1'] }, stock: undefined });
    const codes = Array.from({ length: 120 }, (_, i) => `FRESH-${i}`);
    const clash = await createPool(t.key, generated({ codeConfig: { mode: 'list', codes: [...codes, 'taken-1'] }, stock: undefined }));
    expect(clash.status).toBe(409);
    expect(clash.body.error.code).toBe('CONFLICT');
    expect(clash.body.error.message).toContain('taken-1');
    expect((await call('GET', '/api/v2/coupons/pools', { token: t.key })).body.data).toHaveLength(1);
    // Released: the same fresh codes can be uploaded again; and codes are unique per workspace only.
    expect((await createPool(t.key, generated({ codeConfig: { mode: 'list', codes }, stock: undefined }))).status).toBe(201);
    expect((await createPool(other.key, generated({ codeConfig: { mode: 'list', codes: ['TAKEN-1'] }, stock: undefined }))).status).toBe(201);
  });

  it('takes a large upload and hands its codes out in upload order across list chunks', async () => {
    const t = await tenant('pool-big');
    // 4,000 codes here keeps the suite fast; the limit of 10,000 is checked by the schema.
    const codes = Array.from({ length: 4_000 }, (_, i) => `BIG-${String(i).padStart(5, '0')}`);
    const res = await createPool(t.key, generated({ codeConfig: { mode: 'list', codes }, stock: undefined }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ stock: 4_000, remaining: 4_000, codeConfig: { mode: 'list', count: 4_000 } });
    const tooMany = await createPool(
      t.key,
      generated({ codeConfig: { mode: 'list', codes: Array.from({ length: 10_001 }, (_, i) => `X-${i}`) }, stock: undefined }),
    );
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.error.details[0].field).toBe('codeConfig.codes');

    const members = [await newMember(t.key), await newMember(t.key)];
    const handed: string[] = [];
    let n = 0;
    // 110 issues, 10 at a time: the codes of the first two chunks (99 codes each), none twice.
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        while (n < 110) {
          const i = n++;
          const r = await issue(t.key, { poolId: res.body.data.id, memberId: members[i % 2].id });
          expect(r.status, JSON.stringify(r.body)).toBe(201);
          handed.push(r.body.data.code);
        }
      }),
    );
    expect(handed.sort()).toEqual(codes.slice(0, 110));
    expect(await poolOf(t.key, res.body.data.id)).toMatchObject({ issued: 110, remaining: 3_890 });
  }, 120_000);
});

describe('issuing and redeeming coupons', () => {
  it('issues, lists, and redeems by id and by code (happy path of every endpoint)', async () => {
    const t = await tenant('coupons');
    const [m1, m2] = [await newMember(t.key), await newMember(t.key)];
    const pool = await newPool(t.key, { validUntil: '2099-01-01T00:00:00Z' });
    const other = await newPool(t.key, { name: 'Other', discount: { type: 'free_item' }, codeConfig: { mode: 'generated' } });

    const res = await issue(t.key, { poolId: pool.id, memberId: m1.id });
    expect(res.status).toBe(201);
    const c1 = res.body.data;
    expect(c1.id).toMatch(/^cpn_/);
    expect(c1.code).toMatch(/^SUM-[0-9A-HJKMNP-TV-Z]{8}$/);
    expect(c1).toMatchObject({
      poolId: pool.id,
      memberId: m1.id,
      status: 'issued',
      discount: { type: 'percent', value: 15 },
      validFrom: null,
      validUntil: '2099-01-01T00:00:00.000Z',
      pointsCost: 0,
      redeemedAt: null,
      redemption: null,
    });
    const c2 = (await issue(t.key, { poolId: pool.id, memberId: m1.id })).body.data;
    const c3 = (await issue(t.key, { poolId: other.id, memberId: m2.id })).body.data;
    expect(c3.code).toMatch(/^[0-9A-HJKMNP-TV-Z]{8}$/);
    expect(c3.discount).toEqual({ type: 'free_item' });

    expect((await allCoupons(t.key, '')).map((c) => c.id)).toEqual([c3.id, c2.id, c1.id]);
    expect((await allCoupons(t.key, `poolId=${pool.id}`)).map((c) => c.id)).toEqual([c2.id, c1.id]);
    expect((await allCoupons(t.key, `memberId=${m2.id}`)).map((c) => c.id)).toEqual([c3.id]);
    expect((await allCoupons(t.key, `memberId=${m1.id}&poolId=${other.id}`)).map((c) => c.id)).toEqual([]);
    const mine = await call('GET', `/api/v2/members/${m1.id}/coupons`, { token: t.key });
    expect(mine.status).toBe(200);
    expect(mine.body.data.map((c: { id: string }) => c.id)).toEqual([c2.id, c1.id]);
    const paged = await call('GET', `/api/v2/members/${m1.id}/coupons?limit=1`, { token: t.key });
    expect(paged.body.data).toHaveLength(1);
    expect(paged.body.nextCursor).toEqual(expect.any(String));

    const r1 = await redeem(t.key, c1.id, { externalOrderId: 'ORD-77' });
    expect(r1.status).toBe(200);
    expect(r1.body.data).toMatchObject({ id: c1.id, status: 'redeemed', redemption: { externalOrderId: 'ORD-77' } });
    expect(r1.body.data.redeemedAt).toEqual(expect.any(String));
    const again = await redeem(t.key, c1.id);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('COUPON_ALREADY_REDEEMED');

    // By code, case-insensitively; the member route refuses another member's code as unknown.
    expect((await redeemByCode(t.key, m2.id, { code: c2.code })).status).toBe(404);
    const r2 = await redeemByCode(t.key, m1.id, { code: c2.code.toLowerCase() });
    expect(r2.status).toBe(200);
    expect(r2.body.data).toMatchObject({ id: c2.id, status: 'redeemed', redemption: { externalOrderId: null } });
    expect((await redeemByCode(t.key, m1.id, { code: c2.code })).body.error.code).toBe('COUPON_ALREADY_REDEEMED');
    expect((await redeemByCode(t.key, m1.id, { code: 'SUM-NOSUCHCODE' })).status).toBe(404);
    expect((await redeemByCode(t.key, m1.id, { code: 'not a code!' })).status).toBe(404);

    expect((await allCoupons(t.key, 'status=redeemed')).map((c) => c.id)).toEqual([c2.id, c1.id]);
    expect((await allCoupons(t.key, 'status=issued')).map((c) => c.id)).toEqual([c3.id]);
    expect(await poolOf(t.key, pool.id)).toMatchObject({ issued: 2, redeemed: 2, remaining: 98 });
    expect(await poolOf(t.key, other.id)).toMatchObject({ issued: 1, redeemed: 0, remaining: 99 });
  });

  it('validates issue and redeem bodies (422, nothing written)', async () => {
    const t = await tenant('coupon-val');
    const m = await newMember(t.key);
    const pool = await newPool(t.key);
    const bad = await issue(t.key, { poolId: pool.id, memberId: m.id, extra: 1 });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.map((d: { field: string }) => d.field)).toEqual(['extra']);
    const missing = await issue(t.key, {});
    expect(missing.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['memberId', 'poolId']);
    expect(await poolOf(t.key, pool.id)).toMatchObject({ issued: 0, remaining: 100 });
    const c = (await issue(t.key, { poolId: pool.id, memberId: m.id })).body.data;
    const badRedeem = await redeem(t.key, c.id, { externalOrderId: 'has spaces' });
    expect(badRedeem.status).toBe(422);
    expect(badRedeem.body.error.details[0].field).toBe('externalOrderId');
    const noCode = await redeemByCode(t.key, m.id, {});
    expect(noCode.status).toBe(422);
    expect(noCode.body.error.details[0].field).toBe('code');
    expect((await allCoupons(t.key, 'status=issued')).map((x) => x.id)).toEqual([c.id]);
    expect((await call('GET', '/api/v2/coupons?status=used', { token: t.key })).status).toBe(422);
  });

  it("another workspace's pools, members and coupons are 404; malformed ids too", async () => {
    const [a, b] = await Promise.all([tenant('coupon-a'), tenant('coupon-b')]);
    const ma = await newMember(a.key);
    const mb = await newMember(b.key);
    const poolA = await newPool(a.key);
    const poolB = await newPool(b.key);
    const ca = (await issue(a.key, { poolId: poolA.id, memberId: ma.id })).body.data;

    expect((await issue(b.key, { poolId: poolA.id, memberId: mb.id })).status).toBe(404);
    expect((await issue(b.key, { poolId: poolB.id, memberId: ma.id })).status).toBe(404);
    expect((await issue(b.key, { poolId: 'cpl_nope', memberId: mb.id })).status).toBe(404);
    expect((await issue(b.key, { poolId: poolB.id, memberId: 'mbr_nope' })).status).toBe(404);
    expect((await redeem(b.key, ca.id)).status).toBe(404);
    expect((await redeem(b.key, 'cpn_nope')).status).toBe(404);
    expect((await redeemByCode(b.key, ma.id, { code: ca.code })).status).toBe(404);
    expect((await redeemByCode(b.key, mb.id, { code: ca.code })).status).toBe(404);
    expect((await call('GET', `/api/v2/members/${ma.id}/coupons`, { token: b.key })).status).toBe(404);
    expect((await call('GET', `/api/v2/coupons?poolId=${poolA.id}`, { token: b.key })).body.data).toEqual([]);
    expect((await call('GET', `/api/v2/coupons?memberId=${ma.id}`, { token: b.key })).body.data).toEqual([]);
    expect((await call('GET', '/api/v2/coupons', { token: b.key })).body.data).toEqual([]);
    expect((await call('GET', '/api/v2/coupons/pools', { token: b.key })).body.data.map((p: { id: string }) => p.id)).toEqual([poolB.id]);
    // Nothing of A moved.
    expect(await poolOf(a.key, poolA.id)).toMatchObject({ issued: 1, redeemed: 0 });
    expect((await allCoupons(a.key, ''))[0]).toMatchObject({ id: ca.id, status: 'issued' });
  });

  it('needs coupons:read / coupons:write (403 otherwise)', async () => {
    const t = await tenant('coupon-scope');
    const m = await newMember(t.key);
    const pool = await newPool(t.key);
    const c = (await issue(t.key, { poolId: pool.id, memberId: m.id })).body.data;
    const reader = await createKey(t.token, { name: 'reader', preset: 'read-only' });
    const none = await createKey(t.token, { name: 'members only', scopes: ['members:read', 'members:write'] });
    for (const res of [
      await createPool(reader.key, generated()),
      await issue(reader.key, { poolId: pool.id, memberId: m.id }),
      await redeem(reader.key, c.id),
      await redeemByCode(reader.key, m.id, { code: c.code }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.error.message).toContain('coupons:write');
    }
    for (const path of ['/api/v2/coupons', '/api/v2/coupons/pools', `/api/v2/members/${m.id}/coupons`]) {
      const res = await call('GET', path, { token: none.key });
      expect(res.status).toBe(403);
      expect(res.body.error.message).toContain('coupons:read');
      expect((await call('GET', path, { token: reader.key })).status).toBe(200);
    }
    expect(await poolOf(t.key, pool.id)).toMatchObject({ issued: 1, redeemed: 0 });
  });

  it('30 parallel issues from a pool with stock 10 issue exactly 10; stock ends at 0', async () => {
    const t = await tenant('coupon-race');
    const members = await Promise.all(Array.from({ length: 5 }, () => newMember(t.key)));
    const pool = await newPool(t.key, { stock: 10 });
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => issue(t.key, { poolId: pool.id, memberId: members[i % 5].id })));
    const issued = results.filter((r) => r.status === 201);
    expect(issued).toHaveLength(10);
    const refused = results.filter((r) => r.status !== 201);
    expect(refused).toHaveLength(20);
    for (const r of refused) {
      expect(r.status).toBe(409);
      expect(r.body.error.code).toBe('POOL_EXHAUSTED');
    }
    expect(new Set(issued.map((r) => r.body.data.code)).size).toBe(10);
    expect(await poolOf(t.key, pool.id)).toMatchObject({ stock: 10, issued: 10, remaining: 0, status: 'exhausted' });
    expect(await allCoupons(t.key, `poolId=${pool.id}`)).toHaveLength(10);
    const late = await issue(t.key, { poolId: pool.id, memberId: members[0].id });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('POOL_EXHAUSTED');
  });

  it('10 parallel redeems of one coupon succeed exactly once', async () => {
    const t = await tenant('redeem-race');
    const m = await newMember(t.key);
    const pool = await newPool(t.key);
    const c = (await issue(t.key, { poolId: pool.id, memberId: m.id })).body.data;
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? redeem(t.key, c.id, { externalOrderId: `ORD-${i}` }) : redeemByCode(t.key, m.id, { code: c.code }))),
    );
    expect(statuses(results)).toEqual([200, ...Array(9).fill(409)]);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.error.code).toBe('COUPON_ALREADY_REDEEMED');
    expect(await poolOf(t.key, pool.id)).toMatchObject({ issued: 1, redeemed: 1 });
  });

  it('enforces the per-member limit atomically', async () => {
    const t = await tenant('coupon-limit');
    const [m1, m2] = [await newMember(t.key), await newMember(t.key)];
    const pool = await newPool(t.key, { perMemberLimit: 2 });
    const results = await Promise.all(Array.from({ length: 6 }, () => issue(t.key, { poolId: pool.id, memberId: m1.id })));
    expect(statuses(results)).toEqual([201, 201, 409, 409, 409, 409]);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.error.code).toBe('COUPON_LIMIT_REACHED');
    expect((await issue(t.key, { poolId: pool.id, memberId: m2.id })).status).toBe(201);
    expect(await poolOf(t.key, pool.id)).toMatchObject({ issued: 3, remaining: 97 });
    expect((await call('GET', `/api/v2/members/${m1.id}/coupons`, { token: t.key })).body.data).toHaveLength(2);
  });

  it('deducts the points cost in the same transaction, once; refuses when the balance is short', async () => {
    const t = await tenant('coupon-points');
    const m = await newMember(t.key);
    expect((await call('POST', `/api/v2/members/${m.id}/points`, { token: t.key, body: { type: 'earn', amount: 250, reason: 'seed' } })).status).toBe(201);
    const pool = await newPool(t.key, { pointsCost: 100, stock: 10 });

    const headers = { 'idempotency-key': `issue-${m.id}` };
    const first = await issue(t.key, { poolId: pool.id, memberId: m.id }, headers);
    expect(first.status).toBe(201);
    expect(first.body.data.pointsCost).toBe(100);
    const replay = await issue(t.key, { poolId: pool.id, memberId: m.id }, headers);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(await balanceOf(t.key, m.id)).toEqual({ balance: 150, pending: 0, lifetime: 250 });
    const ledger = await call('GET', `/api/v2/members/${m.id}/points`, { token: t.key });
    expect(ledger.body.data.entries[0]).toMatchObject({ type: 'deduct', amount: -100, balanceAfter: 150 });
    expect(ledger.body.data.entries[0].reason).toContain(first.body.data.id);

    // 150 left: of three parallel issues exactly one can be paid for.
    const parallel = await Promise.all(Array.from({ length: 3 }, () => issue(t.key, { poolId: pool.id, memberId: m.id })));
    expect(statuses(parallel)).toEqual([201, 409, 409]);
    for (const r of parallel.filter((x) => x.status === 409)) expect(r.body.error.code).toBe('INSUFFICIENT_POINTS');
    expect(await balanceOf(t.key, m.id)).toMatchObject({ balance: 50 });

    const short = await issue(t.key, { poolId: pool.id, memberId: m.id });
    expect(short.status).toBe(409);
    expect(short.body.error.code).toBe('INSUFFICIENT_POINTS');
    expect(await balanceOf(t.key, m.id)).toMatchObject({ balance: 50 });
    expect(await poolOf(t.key, pool.id)).toMatchObject({ issued: 2, remaining: 8 });
    expect(await allCoupons(t.key, `poolId=${pool.id}`)).toHaveLength(2);
  });

  it('an idempotent replay of an issue returns the same coupon; another body with the key is 422', async () => {
    const t = await tenant('coupon-idem');
    const [m1, m2] = [await newMember(t.key), await newMember(t.key)];
    const pool = await newPool(t.key);
    const headers = { 'idempotency-key': 'issue-once' };
    const attempts = await Promise.all(Array.from({ length: 5 }, () => issue(t.key, { poolId: pool.id, memberId: m1.id }, headers)));
    for (const r of attempts) expect(r.status).toBe(201);
    expect(new Set(attempts.map((r) => r.body.data.id)).size).toBe(1);
    const later = await issue(t.key, { poolId: pool.id, memberId: m1.id }, headers);
    expect(later.body.data.id).toBe(attempts[0]!.body.data.id);
    expect(later.headers.get('idempotent-replayed')).toBe('true');
    const reused = await issue(t.key, { poolId: pool.id, memberId: m2.id }, headers);
    expect(reused.status).toBe(422);
    expect(reused.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await poolOf(t.key, pool.id)).toMatchObject({ issued: 1, remaining: 99 });

    const c = attempts[0]!.body.data;
    const rh = { 'idempotency-key': 'redeem-once' };
    const r1 = await redeem(t.key, c.id, { externalOrderId: 'ORD-1' }, rh);
    const r2 = await redeem(t.key, c.id, { externalOrderId: 'ORD-1' }, rh);
    expect([r1.status, r2.status]).toEqual([200, 200]);
    expect(r2.body).toEqual(r1.body);
    expect(r2.headers.get('idempotent-replayed')).toBe('true');
  });

  it('refuses expired coupons (410) and pools outside their window or switched off (409)', async () => {
    const t = await tenant('coupon-expiry');
    const m = await newMember(t.key);
    const soon = new Date(Date.now() + 2000).toISOString();
    const pool = await newPool(t.key, { validUntil: soon });
    const c = (await issue(t.key, { poolId: pool.id, memberId: m.id })).body.data;
    const c2 = (await issue(t.key, { poolId: pool.id, memberId: m.id })).body.data;
    await sleep(Math.max(0, Date.parse(soon) - Date.now()) + 200);

    const res = await redeem(t.key, c.id);
    expect(res.status).toBe(410);
    expect(res.body.error.code).toBe('COUPON_EXPIRED');
    const byCode = await redeemByCode(t.key, m.id, { code: c2.code });
    expect(byCode.status).toBe(410);
    expect((await allCoupons(t.key, 'status=expired')).map((x) => x.id)).toEqual([c2.id, c.id]);
    expect(await allCoupons(t.key, 'status=issued')).toEqual([]);
    expect((await call('GET', `/api/v2/members/${m.id}/coupons`, { token: t.key })).body.data[0].status).toBe('expired');

    const late = await issue(t.key, { poolId: pool.id, memberId: m.id });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('POOL_NOT_ACTIVE');
    const scheduled = await newPool(t.key, { validFrom: '2098-01-01T00:00:00Z' });
    expect(scheduled.status).toBe('scheduled');
    expect((await issue(t.key, { poolId: scheduled.id, memberId: m.id })).body.error.code).toBe('POOL_NOT_ACTIVE');
    const off = await newPool(t.key, { active: false });
    expect(off.status).toBe('inactive');
    expect((await issue(t.key, { poolId: off.id, memberId: m.id })).body.error.code).toBe('POOL_NOT_ACTIVE');
    expect(await poolOf(t.key, pool.id)).toMatchObject({ status: 'expired', issued: 2, redeemed: 0 });
  });

  it('a list pool never hands out a code twice, even under concurrency', async () => {
    const t = await tenant('coupon-list');
    const members = await Promise.all(Array.from({ length: 4 }, () => newMember(t.key)));
    const codes = Array.from({ length: 15 }, (_, i) => `LIST-${i}`);
    const pool = await newPool(t.key, { codeConfig: { mode: 'list', codes }, stock: undefined });
    const results = await Promise.all(Array.from({ length: 25 }, (_, i) => issue(t.key, { poolId: pool.id, memberId: members[i % 4].id })));
    const issued = results.filter((r) => r.status === 201);
    expect(issued).toHaveLength(15);
    for (const r of results.filter((x) => x.status !== 201)) expect(r.body.error.code).toBe('POOL_EXHAUSTED');
    expect(issued.map((r) => r.body.data.code).sort()).toEqual([...codes].sort());
    expect(await poolOf(t.key, pool.id)).toMatchObject({ issued: 15, remaining: 0 });
    // An uploaded code redeems by code like a generated one.
    const one = issued[0]!.body.data;
    const r = await redeemByCode(t.key, one.memberId, { code: one.code.toLowerCase() });
    expect(r.status).toBe(200);
    expect(r.body.data.id).toBe(one.id);
  });

  it('refuses to issue to an unenrolled member', async () => {
    const t = await tenant('coupon-unenrolled');
    const m = await newMember(t.key);
    const pool = await newPool(t.key);
    const paid = await newPool(t.key, { pointsCost: 1 });
    expect((await call('PATCH', `/api/v2/members/${m.id}`, { token: t.key, body: { status: 'unenrolled' } })).status).toBe(200);
    for (const p of [pool, paid]) {
      const res = await issue(t.key, { poolId: p.id, memberId: m.id });
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('CONFLICT');
    }
    expect(await poolOf(t.key, pool.id)).toMatchObject({ issued: 0 });
  });
});

describe('coupon events', () => {
  const receivers: { close(): Promise<void> }[] = [];
  afterAll(async () => Promise.all(receivers.map((r) => r.close())));

  it('coupon.issued and coupon.redeemed fire once each, thin (ids only, never the code)', async () => {
    const t = await tenant('coupon-events');
    const r = await startReceiver();
    receivers.push(r);
    const sub = await call('POST', '/api/v2/webhooks', {
      token: t.key,
      body: { url: r.url, description: 'coupons', eventTypes: ['coupon.issued', 'coupon.redeemed'] },
    });
    expect(sub.status).toBe(201);
    const m = await newMember(t.key);
    const pool = await newPool(t.key, { stock: 1 });
    const c = (await issue(t.key, { poolId: pool.id, memberId: m.id })).body.data;
    expect((await issue(t.key, { poolId: pool.id, memberId: m.id })).status).toBe(409);
    expect((await redeem(t.key, c.id)).status).toBe(200);
    expect((await redeem(t.key, c.id)).status).toBe(409);
    await r.waitFor(2);
    // Drained: a coupon issued afterwards from another pool has arrived, so any duplicate would have too.
    const later = (await issue(t.key, { poolId: (await newPool(t.key)).id, memberId: m.id })).body.data;
    await eventually(
      async () => (r.received.some((x) => JSON.parse(x.body).data.resource_id === later.id) ? true : undefined),
      20_000,
      'the later coupon.issued',
    );
    expect(r.received).toHaveLength(3);
    const bodies = r.received
      .map((x) => JSON.parse(x.body))
      .filter((b) => b.data.resource_id === c.id)
      .sort((a, b) => a.type.localeCompare(b.type));
    expect(bodies.map((b) => [b.type, b.data])).toEqual([
      ['coupon.issued', { resource_id: c.id, member_ref: m.id, pool_id: pool.id }],
      ['coupon.redeemed', { resource_id: c.id, member_ref: m.id, pool_id: pool.id }],
    ]);
    for (const x of r.received) expect(x.body).not.toContain(c.code);
  });
});
