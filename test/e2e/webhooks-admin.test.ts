import { afterAll, describe, expect, inject, it } from 'vitest';
import { config } from '../../shared/platform/config';
import { browserSignIn, call, registerAccount } from '../support/api';
import { newMember, tenant } from '../support/fixtures';
import { eventually, startReceiver } from '../support/receiver';
import { addUser } from '../support/table';

/**
 * The webhook operations for owners and admins (the console) under /api/flash/webhooks: roles,
 * tenant isolation, the cookie with its CSRF token, the delivery log filtered to dead deliveries,
 * and bulk replay. The global runtime kills a delivery after 4 attempts with a 1-2 s backoff and
 * bounds a bulk replay at 3 deliveries per call (test/support/global-setup.ts).
 */

const { csrfHeader: CSRF } = config.browserSession;
const receivers: { close(): Promise<void> }[] = [];
afterAll(async () => Promise.all(receivers.map((r) => r.close())));

async function receiver(...args: Parameters<typeof startReceiver>) {
  const r = await startReceiver(...args);
  receivers.push(r);
  return r;
}

const loginAs = async ({ email, password }: { email: string; password: string }) =>
  (await call('POST', '/api/v2/auth/login', { body: { email, password } })).body.data.session.token as string;

const create = (token: string, url: string, eventTypes = ['member.created']) =>
  call('POST', '/api/flash/webhooks', { token, body: { url, description: 'from the console', eventTypes } });

describe('webhooks for admins (/api/flash/webhooks)', () => {
  it('an owner or admin session manages endpoints: create (secret once), rotate, disable, delete; a member may not', async () => {
    const owner = await registerAccount('wh-admin-roles');
    const r = await receiver();
    const made = await create(owner.token, r.url);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.data).toMatchObject({ url: r.url, eventTypes: ['member.created'], status: 'active' });
    expect(made.body.data.secret).toMatch(/^whsec_/);
    const id = made.body.data.id as string;
    const admin = await loginAs(await addUser(owner.workspaceId, 'admin'));
    const listed = await call('GET', '/api/flash/webhooks', { token: admin });
    expect(listed.body.data.map((e: { id: string }) => e.id)).toEqual([id]);
    expect(JSON.stringify(listed.body)).not.toContain('whsec_');
    const rotated = await call('PATCH', `/api/flash/webhooks/${id}`, { token: admin, body: { action: 'rotate_secret' } });
    expect(rotated.body.data.secret).toMatch(/^whsec_/);
    expect(rotated.body.data.secret).not.toBe(made.body.data.secret);
    const disabled = await call('PATCH', `/api/flash/webhooks/${id}`, { token: admin, body: { status: 'disabled' } });
    expect(disabled.body.data.status).toBe('disabled');
    // A disabled endpoint takes no test event and no bulk replay.
    expect((await call('POST', `/api/flash/webhooks/${id}/test`, { token: admin })).status).toBe(409);
    expect((await call('POST', `/api/flash/webhooks/${id}/deliveries/replay-dead`, { token: admin })).status).toBe(409);
    // A member of the workspace is refused on every one of them, and changes nothing.
    const member = await loginAs(await addUser(owner.workspaceId, 'member'));
    expect((await call('GET', '/api/flash/webhooks', { token: member })).status).toBe(403);
    expect((await call('DELETE', `/api/flash/webhooks/${id}`, { token: member })).status).toBe(403);
    expect((await call('POST', `/api/flash/webhooks/${id}/deliveries/replay-dead`, { token: member })).status).toBe(403);
    expect((await call('DELETE', `/api/flash/webhooks/${id}`, { token: admin })).status).toBe(204);
    expect((await call('GET', '/api/flash/webhooks', { token: owner.token })).body.data).toEqual([]);
    const audit = await call('GET', '/api/flash/audit?limit=20', { token: owner.token });
    expect(audit.body.data.map((e: { action: string }) => e.action).reverse()).toEqual(
      expect.arrayContaining(['webhook_endpoint.created', 'webhook_endpoint.secret_rotated', 'webhook_endpoint.updated', 'webhook_endpoint.deleted']),
    );
  });

  it('keeps the two credentials apart: an API key is refused under /api/flash, a session under /api/v2', async () => {
    const t = await tenant('wh-admin-creds');
    const keyOnAdmin = await call('GET', '/api/flash/webhooks', { token: t.key });
    expect(keyOnAdmin.status).toBe(403);
    const sessionOnApi = await call('GET', '/api/v2/webhooks', { token: t.token });
    expect(sessionOnApi.status).toBe(403);
    // The validation is the same on both paths: one detail per field.
    const refused = await call('POST', '/api/flash/webhooks', { token: t.token, body: { url: 'ftp://example.com/x', eventTypes: ['member.exploded'] } });
    expect(refused.status).toBe(422);
    expect(refused.body.error.details.map((d: { field: string }) => d.field)).toEqual([expect.stringMatching(/^eventTypes/)]);
    expect((await call('GET', '/api/flash/webhooks', { token: t.token })).body.data).toEqual([]);
  });

  it('keeps workspaces apart: another workspace’s admin sees none of its endpoints, log or replays', async () => {
    const a = await registerAccount('wh-admin-a');
    const b = await registerAccount('wh-admin-b');
    const r = await receiver();
    const id = (await create(a.token, r.url)).body.data.id as string;
    expect((await call('GET', '/api/flash/webhooks', { token: b.token })).body.data).toEqual([]);
    for (const [method, path, body] of [
      ['GET', `/api/flash/webhooks/${id}/deliveries?status=dead`],
      ['PATCH', `/api/flash/webhooks/${id}`, { status: 'disabled' }],
      ['POST', `/api/flash/webhooks/${id}/test`],
      ['POST', `/api/flash/webhooks/${id}/deliveries/replay-dead`],
      ['DELETE', `/api/flash/webhooks/${id}`],
    ] as const) {
      const res = await call(method, path, { token: b.token, ...(body ? { body } : {}) });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect((await call('GET', '/api/flash/webhooks', { token: a.token })).body.data[0]).toMatchObject({ id, status: 'active' });
  });

  it('takes the console cookie: reads with it, writes only with our Origin and the CSRF token; never on /api/v2', async () => {
    const owner = await registerAccount('wh-admin-cookie');
    const { cookie, csrf } = await browserSignIn(owner.email);
    const r = await receiver();
    const body = { url: r.url, eventTypes: ['member.created'] };
    expect((await call('GET', '/api/flash/webhooks', { headers: { cookie } })).status).toBe(200);
    const refusals: Record<string, string>[] = [{ cookie }, { cookie, origin: inject('baseUrl') }, { cookie, origin: 'https://evil.example', [CSRF]: csrf! }];
    for (const headers of refusals) {
      expect((await call('POST', '/api/flash/webhooks', { headers, body })).status, JSON.stringify(Object.keys(headers))).toBe(403);
    }
    expect((await call('GET', '/api/flash/webhooks', { token: owner.token })).body.data).toEqual([]);
    const made = await call('POST', '/api/flash/webhooks', { headers: { cookie, origin: inject('baseUrl'), [CSRF]: csrf! }, body });
    expect(made.status).toBe(201);
    // The API-key routes never read the cookie.
    expect((await call('GET', '/api/v2/webhooks', { headers: { cookie } })).status).toBe(401);
  });

  it('filters the log to dead deliveries and replays every dead one once, in bounded calls, audited', async () => {
    const t = await tenant('wh-admin-dead');
    const owner = t;
    let healthy = false;
    const r = await receiver(() => ({ status: healthy ? 200 : 503, body: healthy ? 'fine now' : 'down' }));
    const id = (await create(owner.token, r.url)).body.data.id as string;
    const log = (query: string) => call('GET', `/api/flash/webhooks/${id}/deliveries?limit=200${query}`, { token: owner.token });
    for (let i = 0; i < 4; i++) await newMember(t.key);
    const dead = await eventually(
      async () => {
        const entries = (await log('&status=dead')).body.data as { deliveryId: string; state: string; eventId: string }[];
        return entries.length === 4 ? entries : undefined;
      },
      40_000,
      'four dead deliveries',
    );
    expect(new Set(dead.map((e) => e.state))).toEqual(new Set(['dead']));
    expect((await log('')).body.data.length).toBe(4 * 5);
    // One delivery's attempts: its four failed sends and the dead entry, each with status and duration.
    const one = (await log(`&deliveryId=${dead[0]!.deliveryId}`)).body.data as {
      deliveryId: string;
      statusCode: number | null;
      responseExcerpt: string | null;
    }[];
    expect(one).toHaveLength(5);
    expect(new Set(one.map((e) => e.deliveryId))).toEqual(new Set([dead[0]!.deliveryId]));
    expect(one.filter((e) => e.statusCode === 503 && e.responseExcerpt === 'down')).toHaveLength(4);
    expect((await log('&status=exploded')).status).toBe(422);

    healthy = true;
    const replay = (key: string) =>
      call('POST', `/api/flash/webhooks/${id}/deliveries/replay-dead`, { token: owner.token, headers: { 'idempotency-key': key } });
    const first = await replay('bulk-1');
    expect(first.status).toBe(202);
    expect(first.body.data).toEqual({ queued: 3, more: true });
    const second = await replay('bulk-2');
    expect(second.body.data).toEqual({ queued: 1, more: false });
    // The same Idempotency-Key answers the same; a new call finds nothing dead left.
    const again = await replay('bulk-2');
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data).toEqual({ queued: 1, more: false });
    expect((await replay('bulk-3')).body.data).toEqual({ queued: 0, more: false });
    // Each dead delivery arrives once more, with its own webhook-id, and nothing else follows.
    await r.waitFor(4 * 5);
    const later = await newMember(t.key);
    await eventually(async () => (r.received.some((x) => JSON.parse(x.body).data?.resource_id === later.id) ? true : undefined), 20_000, 'a later event');
    const perId = new Map<string, number>();
    for (const x of r.received) perId.set(String(x.headers['webhook-id']), (perId.get(String(x.headers['webhook-id'])) ?? 0) + 1);
    expect([...perId.values()].sort()).toEqual([1, 5, 5, 5, 5]);
    await eventually(async () => ((await log('&status=delivered')).body.data.length === 5 ? true : undefined), 20_000, 'the replays delivered');
    expect((await log('&status=dead')).body.data).toHaveLength(4);
    const audit = await call('GET', '/api/flash/audit?action=webhook_endpoint.dead_deliveries_replayed', { token: owner.token });
    expect(audit.body.data.map((e: { target: { id: string } }) => e.target.id)).toEqual([id, id]);
  });
});
