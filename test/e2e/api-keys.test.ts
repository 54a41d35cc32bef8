import { describe, expect, it } from 'vitest';
import { call, createKey, registerAccount } from '../support/api';

describe('API keys', () => {
  it('a revoked key gets 401 at once, the same 401 as an unknown or malformed key', async () => {
    const acc = await registerAccount('revoke');
    const key = await createKey(acc.token, { name: 'doomed', scopes: ['api_keys:manage'] });
    expect((await call('GET', '/api/v2/api-keys', { token: key.key })).status).toBe(200);

    const del = await call('DELETE', `/api/v2/api-keys/${key.id}`, { token: acc.token });
    expect(del.status).toBe(204);
    expect(del.body).toBeUndefined();

    const revoked = await call('GET', '/api/v2/api-keys', { token: key.key });
    const unknown = await call('GET', '/api/v2/api-keys', { token: `fl_live_${'Z'.repeat(43)}` });
    const malformed = await call('GET', '/api/v2/api-keys', { token: 'fl_live_nope' });
    for (const res of [revoked, unknown, malformed]) {
      expect(res.status).toBe(401);
      expect(res.body.error).toMatchObject({ code: 'UNAUTHENTICATED', message: revoked.body.error.message });
    }
    // Gone from the list, and revoking again is a 404.
    const list = await call('GET', '/api/v2/api-keys', { token: acc.token });
    expect(list.body.data.map((k: { id: string }) => k.id)).not.toContain(key.id);
    expect((await call('DELETE', `/api/v2/api-keys/${key.id}`, { token: acc.token })).status).toBe(404);
  });

  it('a key without the needed scope gets 403 naming the scope', async () => {
    const acc = await registerAccount('scopes');
    const readOnly = await createKey(acc.token, { name: 'ro', preset: 'read-only' });
    expect(readOnly.scopes).toContain('members:read');
    expect(readOnly.scopes).not.toContain('members:write');
    const res = await call('GET', '/api/v2/api-keys', { token: readOnly.key });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
    expect(res.body.error.message).toContain('api_keys:manage');
  });

  it('a key can never grant scopes its creator lacks', async () => {
    const acc = await registerAccount('escalate');
    const manager = await createKey(acc.token, { name: 'mgr', scopes: ['api_keys:manage', 'members:read'] });
    const escalate = await call('POST', '/api/v2/api-keys', { token: manager.key, body: { name: 'more', scopes: ['members:write'] } });
    expect(escalate.status).toBe(403);
    expect(escalate.body.error.message).toContain('members:write');
    const preset = await call('POST', '/api/v2/api-keys', { token: manager.key, body: { name: 'more', preset: 'write' } });
    expect(preset.status).toBe(403);
    const subset = await call('POST', '/api/v2/api-keys', { token: manager.key, body: { name: 'less', scopes: ['members:read'] } });
    expect(subset.status).toBe(201);
    expect(subset.body.data.scopes).toEqual(['members:read']);
    expect(subset.body.data.createdBy).toBe(`key:${manager.id}`);
  });

  it('a key can revoke only keys whose scopes it holds: 403 naming the missing ones, and the target keeps working', async () => {
    const acc = await registerAccount('revoke-beyond');
    const manager = await createKey(acc.token, { name: 'mgr', scopes: ['api_keys:manage', 'members:read'] });
    const stronger = await createKey(acc.token, { name: 'strong', scopes: ['members:read', 'members:write', 'privacy:write'] });
    const refused = await call('DELETE', `/api/v2/api-keys/${stronger.id}`, { token: manager.key });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({
      code: 'FORBIDDEN',
      details: [{ in: 'path', field: 'id', message: 'missing scopes: members:write, privacy:write' }],
    });
    expect(refused.body.error.message).toBe('You cannot revoke a key with scopes you do not hold: members:write, privacy:write');
    expect((await call('GET', '/api/v2/members', { token: stronger.key })).status).toBe(200);
    const audit = await call('GET', '/api/flash/audit?action=api_key.revoked', { token: acc.token });
    expect(audit.body.data).toEqual([]);
    // Within its scopes it may; an admin session may revoke any key.
    const weaker = await createKey(acc.token, { name: 'weak', scopes: ['members:read'] });
    expect((await call('DELETE', `/api/v2/api-keys/${weaker.id}`, { token: manager.key })).status).toBe(204);
    expect((await call('DELETE', `/api/v2/api-keys/${stronger.id}`, { token: acc.token })).status).toBe(204);
    const grant = await call('POST', '/api/v2/api-keys', { token: manager.key, body: { name: 'up', scopes: ['members:read', 'privacy:read'] } });
    expect(grant.status).toBe(403);
    expect(grant.body.error.details).toEqual([{ in: 'body', field: 'scopes', message: 'missing scopes: privacy:read' }]);
  });

  it('no preset holds privacy:read or privacy:write (erasure is irreversible): a key gets them only by name', async () => {
    const acc = await registerAccount('presets-privacy');
    const readOnly = await createKey(acc.token, { name: 'ro', preset: 'read-only' });
    const write = await createKey(acc.token, { name: 'rw', preset: 'write' });
    for (const k of [readOnly, write]) {
      expect(k.scopes).not.toContain('privacy:read');
      expect(k.scopes).not.toContain('privacy:write');
    }
    expect(write.scopes).toEqual(expect.arrayContaining(['members:write', 'consent:read']));
    const named = await createKey(acc.token, { name: 'dpo', scopes: ['privacy:read', 'privacy:write'] });
    expect(named.scopes).toEqual(['privacy:read', 'privacy:write']);
  });

  it('validates the create body', async () => {
    const acc = await registerAccount('keyval');
    const both = await call('POST', '/api/v2/api-keys', { token: acc.token, body: { name: 'x', preset: 'write', scopes: ['members:read'] } });
    expect(both.status).toBe(422);
    const neither = await call('POST', '/api/v2/api-keys', { token: acc.token, body: { name: 'x' } });
    expect(neither.status).toBe(422);
    const bogus = await call('POST', '/api/v2/api-keys', { token: acc.token, body: { name: 'x', scopes: ['members:read', 'root:all'] } });
    expect(bogus.status).toBe(422);
    expect(bogus.body.error.details[0].field).toBe('scopes.1');
  });

  it("workspace B's credentials on workspace A's key id -> 404, and A's key keeps working", async () => {
    const a = await registerAccount('ws-a');
    const b = await registerAccount('ws-b');
    const aKey = await createKey(a.token, { name: 'a', scopes: ['api_keys:manage'] });
    const bKey = await createKey(b.token, { name: 'b', scopes: ['api_keys:manage'] });
    for (const token of [b.token, bKey.key]) {
      const res = await call('DELETE', `/api/v2/api-keys/${aKey.id}`, { token });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    const bList = await call('GET', '/api/v2/api-keys', { token: b.token });
    expect(bList.body.data.map((k: { id: string }) => k.id)).toEqual([bKey.id]);
    expect((await call('GET', '/api/v2/api-keys', { token: aKey.key })).status).toBe(200);
  });

  it('paginates the list with an opaque cursor and refuses a foreign cursor', async () => {
    const acc = await registerAccount('pages');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createKey(acc.token, { name: `k${i}`, preset: 'read-only' })).id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: any = await call('GET', `/api/v2/api-keys?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { token: acc.token });
      expect(res.status).toBe(200);
      expect(res.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.data.map((k: { id: string }) => k.id));
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());

    const other = await registerAccount('pages-other');
    const first = await call('GET', '/api/v2/api-keys?limit=2', { token: acc.token });
    const foreign = await call('GET', `/api/v2/api-keys?cursor=${encodeURIComponent(first.body.nextCursor)}`, { token: other.token });
    expect(foreign.status).toBe(400);
    expect((await call('GET', '/api/v2/api-keys?limit=500', { token: acc.token })).status).toBe(422);
  });
});
