import { describe, expect, it } from 'vitest';
import { call, createKey, PASSWORD, registerAccount, uniqueEmail, type ApiResponse } from '../support/api';
import { newMember, tenant, type Tenant } from '../support/fixtures';
import { addUser, scanItems } from '../support/table';

/**
 * The audit trail as people read it, over HTTP: actors named (a team member by name and e-mail, a
 * key by name and prefix) as they are now, targets linked to their console page, configuration
 * changes with what changed, manual points changes by an API key, the filters and the CSV file.
 */

interface Change {
  field: string;
  before?: unknown;
  after?: unknown;
}

interface Entry {
  id: string;
  action: string;
  actor: { type: string; id?: string; name?: string | null; email?: string | null; prefix?: string | null };
  target: { type: string; id: string; href: string | null };
  requestId: string;
  changes?: Change[];
}

async function trail(token: string, query = ''): Promise<{ data: Entry[]; nextCursor: string | null }> {
  const res = await call('GET', `/api/flash/audit${query}`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** The one entry the request with this answer wrote. */
async function entryOf(token: string, res: ApiResponse, action: string): Promise<Entry> {
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  const requestId = res.headers.get('x-request-id');
  const found = (await trail(token, '?limit=200')).data.filter((e) => e.requestId === requestId);
  expect(found.map((e) => e.action)).toEqual([action]);
  return found[0]!;
}

/** The stored items of these entries, as the table holds them. */
const storedItems = (ids: string[]) => Promise.all(ids.map(async (id) => (await scanItems('entity = :e AND id = :id', { ':e': 'auditEntry', ':id': id }))[0]));

const signIn = async (email: string) => {
  const res = await call('POST', '/api/v2/auth/login', { body: { email, password: PASSWORD } });
  expect(res.status).toBe(200);
  return { token: res.body.data.session.token as string, userId: res.body.data.user.id as string };
};

describe('audit trail: who, named', () => {
  it('a team member by name and e-mail as they are now; by id alone once they left the team', async () => {
    const owner = await registerAccount('audit-names', { name: 'Ada Lovelace' });
    const added = await addUser(owner.workspaceId, 'admin');
    const grace = await signIn(added.email);
    expect((await call('PATCH', '/api/v2/auth/profile', { token: grace.token, body: { name: 'Grace Hopper' } })).status).toBe(200);
    const made = await call('POST', '/api/v2/api-keys', { token: grace.token, body: { name: 'Till', preset: 'read-only' } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const entry = await entryOf(owner.token, made, 'api_key.created');
    expect(entry.actor).toEqual({ type: 'user', id: grace.userId, name: 'Grace Hopper', email: added.email });
    expect(entry.target).toEqual({ type: 'apiKey', id: made.body.data.id, href: '/console/api-keys' });

    // Renamed: the trail shows the name of today; the stored entry never held either.
    expect((await call('PATCH', '/api/v2/auth/profile', { token: grace.token, body: { name: 'Grace B. Hopper' } })).status).toBe(200);
    expect((await trail(owner.token, `?actor=${grace.userId}&action=api_key.created`)).data[0]!.actor).toMatchObject({ name: 'Grace B. Hopper' });
    const [stored] = await storedItems([entry.id]);
    expect(JSON.stringify(stored)).not.toMatch(/Grace|@/);

    // Removed from the team: the entry stays, by id.
    expect((await call('DELETE', `/api/flash/team/members/${grace.userId}`, { token: owner.token })).status).toBe(204);
    expect((await trail(owner.token, `?actor=${grace.userId}&action=api_key.created`)).data[0]!.actor).toEqual({
      type: 'user',
      id: grace.userId,
      name: null,
      email: null,
    });
    // The owner who removed her, by name.
    const removal = (await trail(owner.token, '?action=team.member_removed')).data[0]!;
    expect(removal.actor).toEqual({ type: 'user', id: owner.userId, name: 'Ada Lovelace', email: owner.email });
    expect(removal.target).toEqual({ type: 'user', id: grace.userId, href: '/console/team' });
  });

  it('an API key by name and prefix, revoked too; an anonymous attempt stays anonymous', async () => {
    const owner = await registerAccount('audit-keynames');
    const key = await createKey(owner.token, { name: 'Checkout integration', preset: 'write' });
    const listed = (await call('GET', '/api/v2/api-keys', { token: owner.token })).body.data.find((k: { id: string }) => k.id === key.id);
    const m = await newMember(key.key);
    const res = await call('POST', `/api/v2/members/${m.id}/points`, { token: key.key, body: { type: 'earn', amount: 25, reason: 'Goodwill' } });
    const entry = await entryOf(owner.token, res, 'member.points_adjusted');
    expect(entry.actor).toEqual({ type: 'apiKey', id: key.id, name: 'Checkout integration', prefix: listed.prefix });
    expect((await call('DELETE', `/api/v2/api-keys/${key.id}`, { token: owner.token })).status).toBe(204);
    expect((await trail(owner.token, `?actor=${key.id}`)).data[0]!.actor).toMatchObject({ name: 'Checkout integration', prefix: listed.prefix });
    expect((await call('POST', '/api/v2/auth/login', { body: { email: owner.email, password: 'not the password' } })).status).toBe(401);
    expect((await trail(owner.token, '?action=auth.login_failed')).data[0]!.actor).toEqual({ type: 'anonymous' });
  });
});

describe('audit trail: manual points changes, whichever credential', () => {
  it('an API key’s earn, deduct and correction are each in the trail, by the key, on the member; the ledger names the same key', async () => {
    const t = await tenant('audit-points');
    const keyId = (await call('GET', '/api/v2/api-keys', { token: t.token })).body.data.find((k: { name: string }) => k.name === 'all').id;
    const email = uniqueEmail('ada');
    const m = await newMember(t.key, { email, firstName: 'Ada', lastName: 'Lovelace' });
    const changes = [
      { type: 'earn', amount: 40, reason: 'Goodwill' },
      { type: 'deduct', amount: 10, reason: 'Typo' },
      { type: 'correction', amount: 5, reason: 'Support' },
    ];
    const entries: Entry[] = [];
    for (const body of changes) {
      const res = await call('POST', `/api/v2/members/${m.id}/points`, { token: t.key, body });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.data.entry.source).toMatchObject({ type: 'manual', apiKeyId: keyId });
      entries.push(await entryOf(t.token, res, 'member.points_adjusted'));
    }
    for (const e of entries) {
      expect(e.actor).toMatchObject({ type: 'apiKey', id: keyId, name: 'all' });
      expect(e.target).toEqual({ type: 'member', id: m.id, href: `/console/members/${m.id}` });
    }
    // The member's personal data is in neither the answer nor the stored entries.
    const stored = JSON.stringify(await storedItems(entries.map((e) => e.id)));
    for (const leak of [email, 'Ada', 'Lovelace', '@', 'Goodwill']) expect(stored).not.toContain(leak);
    expect(JSON.stringify(entries)).not.toContain(email);
  });

  it('a console user’s change is the same action from the same place, by the user', async () => {
    const t = await tenant('audit-points-console', { name: 'Ada Admin' });
    const m = await newMember(t.key);
    const res = await call('POST', `/api/flash/members/${m.id}/points`, { token: t.token, body: { type: 'earn', amount: 5, reason: 'Late delivery' } });
    const entry = await entryOf(t.token, res, 'member.points_adjusted');
    expect(entry.actor).toEqual({ type: 'user', id: t.userId, name: 'Ada Admin', email: t.email });
    expect(res.body.data.entry.source.apiKeyId).toBeNull();
  });
});

describe('audit trail: what a configuration change changed', () => {
  it('program rules: only the fields that changed, nested by their path', async () => {
    const t = await tenant('audit-program');
    const current = (await call('GET', '/api/flash/program', { token: t.token })).body.data;
    const levels = [...current.tiers.levels.slice(0, -1), { ...current.tiers.levels.at(-1), threshold: 99999 }];
    const res = await call('PUT', '/api/flash/program', {
      token: t.token,
      body: { earn: { ...current.earn, pointsPerUnit: 2 }, tiers: { ...current.tiers, levels }, points: current.points, timeZone: 'Europe/Berlin' },
    });
    const entry = await entryOf(t.token, res, 'program.updated');
    expect(entry.target).toEqual({ type: 'program', id: t.workspaceId, href: '/console/program' });
    expect([...entry.changes!].sort((a, b) => a.field.localeCompare(b.field))).toEqual([
      { field: 'earn.pointsPerUnit', before: current.earn.pointsPerUnit, after: 2 },
      { field: 'tiers.levels', before: current.tiers.levels, after: levels },
      { field: 'timeZone', before: current.timeZone, after: 'Europe/Berlin' },
    ]);
    // The same rules again: an entry that changed nothing.
    const again = await call('PUT', '/api/flash/program', {
      token: t.token,
      body: { earn: { ...current.earn, pointsPerUnit: 2 }, tiers: { ...current.tiers, levels }, points: current.points, timeZone: 'Europe/Berlin' },
    });
    expect((await entryOf(t.token, again, 'program.updated')).changes).toEqual([]);
  });

  it('campaigns: created with their definition, changed field by field, linked to their page', async () => {
    const t = await tenant('audit-campaign');
    const body = { name: 'Double points', status: 'draft', trigger: { type: 'order' }, effect: { type: 'multiplier', factor: 2 } };
    const made = await call('POST', '/api/flash/campaigns', { token: t.token, body });
    const id = made.body.data.id;
    const created = await entryOf(t.token, made, 'campaign.created');
    expect(created.target).toEqual({ type: 'campaign', id, href: `/console/program/campaigns/${id}` });
    expect(created.changes).toEqual(
      expect.arrayContaining([
        { field: 'name', after: 'Double points' },
        { field: 'effect', after: { type: 'multiplier', factor: 2 } },
      ]),
    );
    expect(created.changes!.every((c) => !('before' in c))).toBe(true);

    const patched = await call('PATCH', `/api/flash/campaigns/${id}`, {
      token: t.token,
      body: { status: 'active', effect: { type: 'multiplier', factor: 3 } },
    });
    expect((await entryOf(t.token, patched, 'campaign.updated')).changes).toEqual([
      { field: 'status', before: 'draft', after: 'active' },
      { field: 'effect.factor', before: 2, after: 3 },
    ]);
    const deleted = await call('DELETE', `/api/flash/campaigns/${id}`, { token: t.token });
    const gone = await entryOf(t.token, deleted, 'campaign.deleted');
    expect(gone.target).toEqual({ type: 'campaign', id, href: null });
    expect(gone).not.toHaveProperty('changes');
  });

  it('rewards: a stock change, without the counters the record keeps beside its definition', async () => {
    const t = await tenant('audit-reward');
    const body = { name: '5 € off', pointsCost: 100, benefit: { type: 'fixed_discount', amount: 500, currency: 'EUR' }, status: 'active', stock: 10 };
    const made = await call('POST', '/api/v2/rewards', { token: t.key, body });
    const id = made.body.data.id;
    expect((await entryOf(t.token, made, 'reward.created')).changes).toEqual(
      expect.arrayContaining([
        { field: 'pointsCost', after: 100 },
        { field: 'stock', after: 10 },
      ]),
    );
    const patched = await call('PATCH', `/api/v2/rewards/${id}`, { token: t.key, body: { stock: 25, name: '5 € off (spring)' } });
    const entry = await entryOf(t.token, patched, 'reward.updated');
    expect(entry.changes).toEqual([
      { field: 'name', before: '5 € off', after: '5 € off (spring)' },
      { field: 'stock', before: 10, after: 25 },
    ]);
    expect(entry.target).toEqual({ type: 'reward', id, href: null });
  });
});

describe('audit trail: settings and roles, what changed', () => {
  it('the CORS origins and a team member’s role, before and after; the member’s own data never', async () => {
    const owner = await registerAccount('audit-settings');
    const origins = ['https://shop.example.com'];
    const first = await call('PUT', '/api/flash/settings/cors', { token: owner.token, body: { allowedOrigins: origins } });
    expect((await entryOf(owner.token, first, 'portal.cors_updated')).changes).toEqual([{ field: 'allowedOrigins', before: [], after: origins }]);
    const second = await call('PUT', '/api/flash/settings/cors', { token: owner.token, body: { allowedOrigins: [...origins, 'https://app.example.com'] } });
    expect((await entryOf(owner.token, second, 'portal.cors_updated')).changes).toEqual([
      { field: 'allowedOrigins', before: origins, after: [...origins, 'https://app.example.com'] },
    ]);

    const added = await addUser(owner.workspaceId, 'support');
    const { userId } = await signIn(added.email);
    const changed = await call('PATCH', `/api/flash/team/members/${userId}`, { token: owner.token, body: { role: 'marketer' } });
    const entry = await entryOf(owner.token, changed, 'team.role_changed');
    expect(entry.changes).toEqual([{ field: 'role', before: 'support', after: 'marketer' }]);
    expect(entry.target).toEqual({ type: 'user', id: userId, href: '/console/team' });
    const [stored] = await storedItems([entry.id]);
    expect(JSON.stringify(stored)).not.toContain('@');
  });
});

describe('audit trail: filters, pages and the CSV file', () => {
  let t: Tenant;
  let campaignId: string;
  const setUp = async () => {
    t = await tenant('audit-filters', { name: 'Fran Filter' });
    const made = await call('POST', '/api/flash/campaigns', {
      token: t.token,
      body: { name: 'Say "hi", =1+1', status: 'draft', trigger: { type: 'order' }, effect: { type: 'multiplier', factor: 2 } },
    });
    campaignId = made.body.data.id;
    await call('PATCH', `/api/flash/campaigns/${campaignId}`, { token: t.token, body: { priority: 4 } });
    await call('PATCH', `/api/flash/campaigns/${campaignId}`, { token: t.token, body: { priority: 5 } });
    await call('POST', '/api/flash/campaigns', {
      token: t.token,
      body: { name: 'Other', status: 'draft', trigger: { type: 'order' }, effect: { type: 'multiplier', factor: 2 } },
    });
  };

  it('by target (type and id), by actor, by action and by period, page by page', async () => {
    await setUp();
    const one = (await trail(t.token, `?targetType=campaign&targetId=${campaignId}`)).data;
    expect(one.map((e) => e.action)).toEqual(['campaign.updated', 'campaign.updated', 'campaign.created']);
    expect((await trail(t.token, '?targetType=campaign')).data).toHaveLength(4);
    expect((await trail(t.token, `?targetType=member&targetId=${campaignId}`)).data).toEqual([]);
    const byActor = (await trail(t.token, `?actor=${t.userId}&targetId=${campaignId}&action=campaign.updated`)).data;
    expect(byActor.map((e) => e.changes)).toEqual([[{ field: 'priority', before: 4, after: 5 }], [{ field: 'priority', before: expect.anything(), after: 4 }]]);

    // Pages of one, following the cursor, give the same three entries.
    const seen: string[] = [];
    let cursor = '';
    do {
      const page = await trail(t.token, `?targetId=${campaignId}&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      seen.push(...page.data.map((e) => e.id));
      cursor = page.nextCursor ?? '';
    } while (cursor);
    expect(seen).toEqual(one.map((e) => e.id));

    const future = new Date(Date.now() + 3600_000).toISOString();
    expect((await trail(t.token, `?targetId=${campaignId}&from=${future}`)).data).toEqual([]);
    expect((await trail(t.token, `?targetId=${campaignId}&to=${future}`)).data).toHaveLength(3);
    expect((await call('GET', '/api/flash/audit?targetId=a%20b', { token: t.token })).status).toBe(422);
  });

  it('the CSV file: the filtered entries with names, links and changes, formulas neutralised', async () => {
    await setUp();
    const res = await call('GET', `/api/flash/audit/export?targetType=campaign&targetId=${campaignId}`, { token: t.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="audit-log.csv"');
    expect(res.headers.get('x-audit-truncated')).toBeNull();
    const lines = (res.body as string).split('\r\n');
    expect(lines[0]).toBe(
      'occurred_at,action,outcome,reason,actor_type,actor_id,actor_name,actor_email,actor_key_prefix,target_type,target_id,target_address,changes,request_id',
    );
    const href = `/console/program/campaigns/${campaignId}`;
    expect(lines[1]).toMatch(
      new RegExp(
        `^[^,]+,campaign\\.updated,success,,user,${t.userId},Fran Filter,${t.email.replace('.', '\\.')},,campaign,${campaignId},${href},priority: 4 -> 5,req_`,
      ),
    );
    // A quoted cell with the campaign's name: its quotes doubled, its formula neutralised, one change a line.
    expect(res.body).toContain(`"name: (none) -> ""Say \\""hi\\"", =1+1""`);
    expect(lines.at(-1)).toBe('');
    expect(lines).toHaveLength(5);
    // The same filters as the list: a period with nothing in it is the header alone.
    const empty = await call('GET', `/api/flash/audit/export?targetId=${campaignId}&from=${new Date(Date.now() + 3600_000).toISOString()}`, { token: t.token });
    expect(empty.body).toBe(`${lines[0]}\r\n`);
  });

  it('append-only: no route changes or deletes an entry; the CSV needs audit:read like the list', async () => {
    await setUp();
    const [entry] = (await trail(t.token, '?limit=1')).data;
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      expect((await call(method, `/api/flash/audit/${entry!.id}`, { token: t.token, body: {} })).status).toBeGreaterThanOrEqual(404);
      expect((await call(method, '/api/flash/audit', { token: t.token, body: {} })).status).toBeGreaterThanOrEqual(404);
    }
    expect((await trail(t.token, '?limit=1')).data[0]).toEqual(entry);
    const member = await addUser(t.workspaceId, 'member');
    const session = await signIn(member.email);
    expect((await call('GET', '/api/flash/audit/export', { token: session.token })).status).toBe(403);
    expect((await call('GET', '/api/flash/audit/export', { token: t.key })).status).toBe(403);
  });
});
