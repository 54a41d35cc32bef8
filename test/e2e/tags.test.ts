import { describe, expect, it } from 'vitest';
import { SCOPES } from '../../shared/platform/contract/scopes';
import { call, createKey } from '../support/api';
import { newMember, tenant } from '../support/fixtures';
import { outboxEvents as eventsOf } from '../support/table';

const keyWithout = async (token: string, scope: string) => (await createKey(token, { name: `no ${scope}`, scopes: SCOPES.filter((s) => s !== scope) })).key;

const tagsOf = async (key: string) => (await call('GET', '/api/v2/tags', { token: key })).body.data as { key: string; memberCount: number }[];

describe('member tags', () => {
  it('adds tags idempotently, emits member.tagged per new tag, and keeps exact counts', async () => {
    const t = await tenant('tags');
    const [ada, bob] = [await newMember(t.key), await newMember(t.key)];
    const first = await call('POST', `/api/v2/members/${ada.id}/tags`, { token: t.key, body: { tags: ['vip', 'newsletter', 'vip'] } });
    expect(first.status).toBe(200);
    expect(first.body.data.added).toEqual(['newsletter', 'vip']);
    expect(first.body.data.tags.map((x: { key: string }) => x.key)).toEqual(['newsletter', 'vip']);

    // Adding what the member has changes nothing and emits nothing.
    const again = await call('POST', `/api/v2/members/${ada.id}/tags`, { token: t.key, body: { tags: ['vip'] } });
    expect(again.status).toBe(200);
    expect(again.body.data.added).toEqual([]);
    expect(again.body.data.tags).toEqual(first.body.data.tags);

    await call('POST', `/api/v2/members/${bob.id}/tags`, { token: t.key, body: { tags: ['vip'] } });
    expect(await tagsOf(t.key)).toEqual([
      expect.objectContaining({ key: 'newsletter', memberCount: 1 }),
      expect.objectContaining({ key: 'vip', memberCount: 2 }),
    ]);

    const own = await call('GET', `/api/v2/members/${ada.id}/tags`, { token: t.key });
    expect(own.status).toBe(200);
    expect(own.body.data).toEqual({ memberId: ada.id, tags: first.body.data.tags });
    expect((await call('GET', `/api/v2/members/${ada.id}`, { token: t.key })).body.data.tags).toEqual(['newsletter', 'vip']);
    const listed = await call('GET', '/api/v2/members?tag=newsletter', { token: t.key });
    expect(listed.body.data.map((m: { id: string }) => m.id)).toEqual([ada.id]);

    const tagged = await eventsOf(t.workspaceId, 'member.tagged');
    expect(tagged.map((e) => e.data).sort((a, b) => `${a.resource_id}${a.tag}`.localeCompare(`${b.resource_id}${b.tag}`))).toEqual(
      [
        { resource_id: ada.id, member_ref: ada.id, tag: 'newsletter' },
        { resource_id: ada.id, member_ref: ada.id, tag: 'vip' },
        { resource_id: bob.id, member_ref: bob.id, tag: 'vip' },
      ].sort((a, b) => `${a.resource_id}${a.tag}`.localeCompare(`${b.resource_id}${b.tag}`)),
    );
  });

  it('removes a tag (204), answers 404 for a tag the member does not carry, and moves the count', async () => {
    const t = await tenant('untag');
    const m = await newMember(t.key);
    await call('POST', `/api/v2/members/${m.id}/tags`, { token: t.key, body: { tags: ['vip', 'churn_risk'] } });
    const del = await call('DELETE', `/api/v2/members/${m.id}/tags/vip`, { token: t.key });
    expect(del.status).toBe(204);
    expect((await call('DELETE', `/api/v2/members/${m.id}/tags/vip`, { token: t.key })).status).toBe(404);
    expect((await call('DELETE', `/api/v2/members/${m.id}/tags/NOT%20A%20TAG`, { token: t.key })).status).toBe(404);
    expect((await call('DELETE', `/api/v2/members/mbr_unknown/tags/churn_risk`, { token: t.key })).status).toBe(404);
    // A tag no member carries leaves the list.
    expect(await tagsOf(t.key)).toEqual([expect.objectContaining({ key: 'churn_risk', memberCount: 1 })]);
    expect((await call('GET', `/api/v2/members/${m.id}/tags`, { token: t.key })).body.data.tags.map((x: { key: string }) => x.key)).toEqual(['churn_risk']);
    // Re-adding works and counts again.
    await call('POST', `/api/v2/members/${m.id}/tags`, { token: t.key, body: { tags: ['vip'] } });
    expect((await tagsOf(t.key)).find((x) => x.key === 'vip')?.memberCount).toBe(1);
  });

  it('concurrent additions all survive and counters stay exact', async () => {
    const t = await tenant('tags-race');
    const m = await newMember(t.key);
    const tags = Array.from({ length: 8 }, (_, i) => `t${i}`);
    const answers = await Promise.all(tags.map((tag) => call('POST', `/api/v2/members/${m.id}/tags`, { token: t.key, body: { tags: [tag, 'shared'] } })));
    expect(answers.map((a) => a.status)).toEqual(tags.map(() => 200));
    const own = await call('GET', `/api/v2/members/${m.id}/tags`, { token: t.key });
    expect(own.body.data.tags.map((x: { key: string }) => x.key)).toEqual(['shared', ...tags]);
    // Exactly one request added 'shared'.
    expect(answers.filter((a) => a.body.data.added.includes('shared'))).toHaveLength(1);

    const many = await Promise.all(Array.from({ length: 6 }, () => newMember(t.key)));
    await Promise.all(many.map((x) => call('POST', `/api/v2/members/${x.id}/tags`, { token: t.key, body: { tags: ['shared'] } })));
    await Promise.all(many.slice(0, 2).map((x) => call('DELETE', `/api/v2/members/${x.id}/tags/shared`, { token: t.key })));
    const counts = Object.fromEntries((await tagsOf(t.key)).map((x) => [x.key, x.memberCount]));
    expect(counts).toEqual({ shared: 5, ...Object.fromEntries(tags.map((x) => [x, 1])) });
    expect((await eventsOf(t.workspaceId, 'member.tagged')).length).toBe(8 + 1 + 6);
  });

  it('validates tag keys and writes nothing on a 422', async () => {
    const t = await tenant('tags-val');
    const m = await newMember(t.key);
    for (const body of [
      { tags: ['VIP'] },
      { tags: [] },
      { tags: ['ok', 'has space'] },
      { tags: Array.from({ length: 26 }, (_, i) => `t${i}`) },
      { tags: ['ok'], extra: 1 },
      {},
    ]) {
      const res = await call('POST', `/api/v2/members/${m.id}/tags`, { token: t.key, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    }
    expect((await call('GET', `/api/v2/members/${m.id}/tags`, { token: t.key })).body.data.tags).toEqual([]);
    expect(await tagsOf(t.key)).toEqual([]);
    expect((await call('GET', '/api/v2/tags?limit=0', { token: t.key })).status).toBe(422);
    expect((await call('GET', '/api/v2/tags?prefix=A*', { token: t.key })).status).toBe(422);
    expect(await eventsOf(t.workspaceId, 'member.tagged')).toEqual([]);
  });

  it('lists tags by key with prefix and cursor pages', async () => {
    const t = await tenant('tags-page');
    const m = await newMember(t.key);
    await call('POST', `/api/v2/members/${m.id}/tags`, { token: t.key, body: { tags: ['a1', 'a2', 'a3', 'b1'] } });
    const first = await call('GET', '/api/v2/tags?limit=2', { token: t.key });
    expect(first.body.data.map((x: { key: string }) => x.key)).toEqual(['a1', 'a2']);
    const second = await call('GET', `/api/v2/tags?limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`, { token: t.key });
    expect(second.body.data.map((x: { key: string }) => x.key)).toEqual(['a3', 'b1']);
    expect((await call('GET', '/api/v2/tags?prefix=b', { token: t.key })).body.data.map((x: { key: string }) => x.key)).toEqual(['b1']);
  });

  it('replays an Idempotency-Key answer', async () => {
    const t = await tenant('tags-idem');
    const m = await newMember(t.key);
    const headers = { 'idempotency-key': `tag-${m.id}` };
    const a = await call('POST', `/api/v2/members/${m.id}/tags`, { token: t.key, body: { tags: ['vip'] }, headers });
    const b = await call('POST', `/api/v2/members/${m.id}/tags`, { token: t.key, body: { tags: ['vip'] }, headers });
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    expect(b.body).toEqual(a.body);
    expect(b.body.data.added).toEqual(['vip']);
  });

  it("another workspace's member is 404 on every tag route and stays untouched", async () => {
    const [a, b] = await Promise.all([tenant('tags-a'), tenant('tags-b')]);
    const m = await newMember(a.key);
    await call('POST', `/api/v2/members/${m.id}/tags`, { token: a.key, body: { tags: ['vip'] } });
    expect((await call('GET', `/api/v2/members/${m.id}/tags`, { token: b.key })).status).toBe(404);
    expect((await call('POST', `/api/v2/members/${m.id}/tags`, { token: b.key, body: { tags: ['stolen'] } })).status).toBe(404);
    expect((await call('DELETE', `/api/v2/members/${m.id}/tags/vip`, { token: b.key })).status).toBe(404);
    expect(await tagsOf(b.key)).toEqual([]);
    expect((await call('GET', `/api/v2/members/${m.id}/tags`, { token: a.key })).body.data.tags.map((x: { key: string }) => x.key)).toEqual(['vip']);
    expect(await tagsOf(a.key)).toEqual([expect.objectContaining({ key: 'vip', memberCount: 1 })]);
  });

  it('needs members:read to read and members:write to change', async () => {
    const t = await tenant('tags-scope');
    const m = await newMember(t.key);
    const [noRead, noWrite] = await Promise.all([keyWithout(t.token, 'members:read'), keyWithout(t.token, 'members:write')]);
    for (const [method, path, key, scope] of [
      ['GET', '/api/v2/tags', noRead, 'members:read'],
      ['GET', `/api/v2/members/${m.id}/tags`, noRead, 'members:read'],
      ['POST', `/api/v2/members/${m.id}/tags`, noWrite, 'members:write'],
      ['DELETE', `/api/v2/members/${m.id}/tags/vip`, noWrite, 'members:write'],
    ] as const) {
      const res = await call(method, path, { token: key, body: method === 'POST' ? { tags: ['vip'] } : undefined });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error.message).toContain(scope);
    }
    expect((await call('GET', `/api/v2/members/${m.id}/tags`, { token: t.key })).body.data.tags).toEqual([]);
  });
});
