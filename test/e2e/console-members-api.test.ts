import { describe, expect, inject, it } from 'vitest';
import { config } from '../../shared/platform/config';
import { call, PASSWORD, uniqueEmail } from '../support/api';
import { newMember, tenant } from '../support/fixtures';
import { addUser } from '../support/table';

/**
 * The console's member routes under /api/flash/members over HTTP: an admin session (bearer or the
 * console cookie with its CSRF token), never an API key; the same answers as the API-key routes;
 * points adjusted with a reason and audited; erasure by a user; one workspace never sees another's.
 */

const { cookie: COOKIE, csrfHeader: CSRF } = config.browserSession;

/** The console's sign-in: the cookie and the CSRF token a browser would hold. */
async function browserSession(email: string) {
  const res = await call('POST', '/api/flash/session', { body: { email, password: PASSWORD } });
  const token = (res.headers.get('set-cookie') ?? '').match(new RegExp(`^${COOKIE}=([^;]+)`))?.[1];
  return { cookie: `${COOKIE}=${token}`, csrf: res.body.data.session.csrfToken as string };
}

const login = async (email: string, password: string) =>
  (await call('POST', '/api/v2/auth/login', { body: { email, password } })).body.data.session.token as string;
const auditOf = async (token: string, action: string) => (await call('GET', `/api/flash/audit?action=${action}`, { token })).body.data;

describe('console member routes', () => {
  it('find a member by e-mail or externalId, page through the others by cursor, and read profile, tier, ledger and coupons', async () => {
    const t = await tenant('console-members');
    const email = uniqueEmail('ada');
    const ada = await newMember(t.key, { email, externalId: 'crm-ada', firstName: 'Ada' });
    await newMember(t.key);
    await newMember(t.key);
    await call('POST', `/api/v2/members/${ada.id}/tags`, { token: t.key, body: { tags: ['vip'] } });
    await call('POST', `/api/v2/members/${ada.id}/points`, { token: t.key, body: { type: 'earn', amount: 30, reason: 'welcome' } });

    const byEmail = await call('GET', `/api/flash/members?email=${encodeURIComponent(email.toUpperCase())}`, { token: t.token });
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.data.map((m: { id: string }) => m.id)).toEqual([ada.id]);
    const byExternal = await call('GET', '/api/flash/members?externalId=crm-ada', { token: t.token });
    expect(byExternal.body.data.map((m: { id: string }) => m.id)).toEqual([ada.id]);
    expect((await call('GET', '/api/flash/members?email=nobody%40example.test', { token: t.token })).body.data).toEqual([]);

    const first = await call('GET', '/api/flash/members?limit=2', { token: t.token });
    expect(first.body.data).toHaveLength(2);
    const second = await call('GET', `/api/flash/members?limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`, { token: t.token });
    expect(second.body.data).toHaveLength(1);
    expect(new Set([...first.body.data, ...second.body.data].map((m: { id: string }) => m.id)).size).toBe(3);

    const profile = await call('GET', `/api/flash/members/${ada.id}`, { token: t.token });
    expect(profile.status).toBe(200);
    expect(profile.body.data.member).toMatchObject({ id: ada.id, email, tags: ['vip'], points: { balance: 30 } });
    expect(profile.body.data.tier).toEqual((await call('GET', `/api/v2/members/${ada.id}/tier`, { token: t.key })).body.data);
    const ledger = await call('GET', `/api/flash/members/${ada.id}/points?limit=10`, { token: t.token });
    expect(ledger.body.data).toMatchObject({ balance: 30, entries: [{ amount: 30, reason: 'welcome' }] });
    const coupons = await call('GET', `/api/flash/members/${ada.id}/coupons`, { token: t.token });
    expect(coupons.status).toBe(200);
    expect(coupons.body).toEqual({ data: [], nextCursor: null });
    expect((await call('GET', '/api/flash/members/mbr_01m7xhg19ss6d8332hgcph7bx7', { token: t.token })).status).toBe(404);
  });

  it('adjust points with a reason once per Idempotency-Key, audited with the user; refused input changes nothing', async () => {
    const t = await tenant('console-points');
    const m = await newMember(t.key);
    const path = `/api/flash/members/${m.id}/points`;
    const headers = { 'idempotency-key': `adjust-${m.id}` };
    const earned = await call('POST', path, { token: t.token, headers, body: { type: 'earn', amount: 120, reason: 'Late delivery' } });
    expect(earned.status).toBe(201);
    expect(earned.body.data).toMatchObject({ points: { balance: 120 }, entry: { type: 'earn', amount: 120, reason: 'Late delivery' } });
    const replay = await call('POST', path, { token: t.token, headers, body: { type: 'earn', amount: 120, reason: 'Late delivery' } });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(earned.body);

    const refused = await call('POST', path, { token: t.token, body: { type: 'give', amount: 0 } });
    expect(refused.status).toBe(422);
    expect(refused.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['amount', 'reason', 'type']);
    const tooMuch = await call('POST', path, { token: t.token, body: { type: 'deduct', amount: 121, reason: 'Too much' } });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.error.code).toBe('INSUFFICIENT_POINTS');
    const ledger = (await call('GET', `/api/v2/members/${m.id}/points`, { token: t.key })).body.data;
    expect(ledger).toMatchObject({ balance: 120 });
    expect(ledger.entries).toHaveLength(1);

    const entries = await auditOf(t.token, 'member.points_adjusted');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actor: { type: 'user', id: t.userId }, target: { type: 'member', id: m.id }, outcome: 'success' });
    // The same change made with an API key is in the audit trail too, by the key.
    expect((await call('POST', `/api/v2/members/${m.id}/points`, { token: t.key, body: { type: 'deduct', amount: 20, reason: 'fix' } })).status).toBe(201);
    const both = await auditOf(t.token, 'member.points_adjusted');
    expect(both).toHaveLength(2);
    expect(both[0]).toMatchObject({ actor: { type: 'apiKey' }, target: { type: 'member', id: m.id } });
  });

  it('erase a member as a user: audited, later adjustments answer 410, the lookup no longer finds the e-mail', async () => {
    const t = await tenant('console-erase');
    const email = uniqueEmail('erin');
    const m = await newMember(t.key, { email });
    const erased = await call('POST', `/api/flash/members/${m.id}/erasure`, { token: t.token });
    expect(erased.status).toBe(200);
    expect(erased.body.data).toMatchObject({ memberId: m.id, alreadyErased: false });
    const again = await call('POST', `/api/flash/members/${m.id}/erasure`, { token: t.token });
    expect(again.body.data).toMatchObject({ alreadyErased: true, erasedAt: erased.body.data.erasedAt });
    const entries = await auditOf(t.token, 'member.erased');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actor: { type: 'user', id: t.userId }, target: { type: 'member', id: m.id } });
    const adjust = await call('POST', `/api/flash/members/${m.id}/points`, { token: t.token, body: { type: 'earn', amount: 1, reason: 'after' } });
    expect(adjust.status).toBe(410);
    expect(adjust.body.error.code).toBe('MEMBER_ERASED');
    expect((await call('GET', `/api/flash/members?email=${encodeURIComponent(email)}`, { token: t.token })).body.data).toEqual([]);
    expect((await call('GET', `/api/flash/members/${m.id}`, { token: t.token })).body.data.member.email).toBeNull();
  });

  it('owners and admins only: a member session and an API key are refused with 403', async () => {
    const t = await tenant('console-roles');
    const m = await newMember(t.key);
    const member = await addUser(t.workspaceId, 'member');
    const admin = await addUser(t.workspaceId, 'admin');
    const memberToken = await login(member.email, member.password);
    const adminToken = await login(admin.email, admin.password);
    const body = { type: 'earn', amount: 5, reason: 'role check' };
    for (const [method, path, withBody] of [
      ['GET', '/api/flash/members', false],
      ['GET', `/api/flash/members/${m.id}`, false],
      ['GET', `/api/flash/members/${m.id}/points`, false],
      ['GET', `/api/flash/members/${m.id}/coupons`, false],
      ['POST', `/api/flash/members/${m.id}/points`, true],
      ['POST', `/api/flash/members/${m.id}/erasure`, false],
    ] as const) {
      const asMember = await call(method, path, { token: memberToken, ...(withBody ? { body } : {}) });
      expect(asMember.status, `${method} ${path}`).toBe(403);
      // An API key, even with every scope, is refused like on every admin route (docs/data.md).
      const asKey = await call(method, path, { token: t.key, ...(withBody ? { body } : {}) });
      expect(asKey.status, `${method} ${path}`).toBe(403);
    }
    expect((await call('GET', `/api/v2/members/${m.id}`, { token: t.key })).body.data.status).toBe('active');
    expect((await call('POST', `/api/flash/members/${m.id}/points`, { token: adminToken, body })).status).toBe(201);
    expect((await call('GET', `/api/v2/members/${m.id}`, { token: t.key })).body.data.points.balance).toBe(5);
  });

  it('with the console cookie: reads work, a write needs our Origin and the CSRF token', async () => {
    const t = await tenant('console-cookie');
    const m = await newMember(t.key);
    const { cookie, csrf } = await browserSession(t.email);
    expect((await call('GET', `/api/flash/members/${m.id}`, { headers: { cookie } })).status).toBe(200);
    const path = `/api/flash/members/${m.id}/points`;
    const body = { type: 'earn', amount: 7, reason: 'cookie' };
    const origin = inject('baseUrl');
    expect((await call('POST', path, { headers: { cookie, origin }, body })).status).toBe(403);
    expect((await call('POST', path, { headers: { cookie, origin: 'https://evil.example', [CSRF]: csrf }, body })).status).toBe(403);
    expect((await call('POST', `/api/flash/members/${m.id}/erasure`, { headers: { cookie, origin } })).status).toBe(403);
    expect((await call('GET', `/api/v2/members/${m.id}`, { token: t.key })).body.data).toMatchObject({ points: { balance: 0 }, status: 'active' });
    expect((await call('POST', path, { headers: { cookie, origin, [CSRF]: csrf }, body })).status).toBe(201);
    // The API-key route with the same cookie: not a credential there.
    expect((await call('POST', `/api/v2/members/${m.id}/points`, { headers: { cookie, origin, [CSRF]: csrf }, body })).status).toBe(401);
  });

  it("one workspace's admin never reaches another's members", async () => {
    const [a, b] = await Promise.all([tenant('console-iso-a'), tenant('console-iso-b')]);
    const email = uniqueEmail('isolated');
    const m = await newMember(a.key, { email, externalId: 'iso-1' });
    expect((await call('GET', `/api/flash/members?email=${encodeURIComponent(email)}`, { token: b.token })).body.data).toEqual([]);
    expect((await call('GET', '/api/flash/members?externalId=iso-1', { token: b.token })).body.data).toEqual([]);
    expect((await call('GET', '/api/flash/members', { token: b.token })).body.data).toEqual([]);
    for (const [method, path] of [
      ['GET', `/api/flash/members/${m.id}`],
      ['GET', `/api/flash/members/${m.id}/points`],
      ['GET', `/api/flash/members/${m.id}/coupons`],
      ['POST', `/api/flash/members/${m.id}/erasure`],
    ] as const) {
      expect((await call(method, path, { token: b.token })).status, `${method} ${path}`).toBe(404);
    }
    const adjust = await call('POST', `/api/flash/members/${m.id}/points`, { token: b.token, body: { type: 'earn', amount: 1, reason: 'x' } });
    expect(adjust.status).toBe(404);
    expect((await call('GET', `/api/v2/members/${m.id}`, { token: a.key })).body.data).toMatchObject({ status: 'active', email, points: { balance: 0 } });
  });
});
