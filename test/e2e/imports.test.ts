import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { call } from '../support/api';
import { tenant } from '../support/fixtures';
import { apply, importJob, preview } from '../support/imports';
import { startReceiver } from '../support/receiver';

/**
 * Import jobs over HTTP: files uploaded to their presigned link (s3rver), previewed (every error by
 * line and field, nothing written), applied by the import workflow, and applied again (nothing
 * doubles). Members are created with their tags, opening balances become lots with their own dates
 * without touching lifetime points or sending `loyalty.points_earned`, tiers land with their dates.
 */

const receivers: { close(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

const MEMBERS = 300;
/** Member rows with a deliberate error: line -> field. */
const MEMBER_ERRORS: Record<number, string> = { 11: 'email', 21: 'phone', 41: 'email', 61: 'favourite' };

/** Line n (2 = the first data row under the header) of the members file. */
function memberLine(n: number): string {
  const i = n - 1;
  const email = n === 11 ? 'not-an-email' : n === 41 ? '' : `imported-${i}@example.test`;
  const externalId = n === 41 ? '' : `OLD-${i}`;
  const phone = n === 21 ? 'call me' : '+49301234567';
  const favourite = n === 61 ? 'y'.repeat(1001) : 'espresso';
  const tags = i % 2 === 0 ? 'vip;newsletter' : '';
  return `${externalId},${email},Ada ${i},"Lovelace, ${i}",${phone},${tags},${favourite}`;
}

function membersFile(): string {
  const lines = ['externalId,email,firstName,lastName,phone,tags,attr.favourite'];
  for (let n = 2; n <= MEMBERS + 1; n++) lines.push(memberLine(n));
  return `${lines.join('\n')}\n`;
}

describe('import jobs', () => {
  it('members, balances and tiers: previewed with their errors, applied exactly, applied again without doubling', { timeout: 240_000 }, async () => {
    const t = await tenant('imports');
    const receiver = await startReceiver();
    receivers.push(receiver);
    const hook = await call('POST', '/api/v2/webhooks', { token: t.key, body: { url: receiver.url, eventTypes: ['loyalty.points_earned'] } });
    expect(hook.status).toBe(201);

    // --- Members ---
    const membersJob = await importJob(t, 'members', 'csv', membersFile());
    const previewed = await preview(t, membersJob);
    expect(previewed.preview).toMatchObject({ rows: MEMBERS, invalid: 4, valid: MEMBERS - 4 });
    expect(previewed.preview.outcomes).toEqual({ created: MEMBERS - 4, invalid: 4 });
    expect(previewed.preview.totals.members).toBe(MEMBERS - 4);
    expect(previewed.preview.errors.map((e: { line: number; field: string }) => [e.line, e.field])).toEqual(
      Object.entries(MEMBER_ERRORS).map(([line, field]) => [Number(line), field === 'favourite' ? 'customAttributes.favourite' : field]),
    );
    // Nothing was written.
    expect((await call('GET', '/api/v2/members?externalId=OLD-1', { token: t.key })).body.data).toEqual([]);

    const applied = await apply(t, membersJob);
    expect(applied).toMatchObject({ status: 'completed', progress: { rows: MEMBERS, done: MEMBERS - 4, skipped: 0, failed: 4 } });
    const ada = (await call('GET', '/api/v2/members?externalId=OLD-2', { token: t.key })).body.data[0];
    expect(ada).toMatchObject({ email: 'imported-2@example.test', firstName: 'Ada 2', lastName: 'Lovelace, 2', customAttributes: { favourite: 'espresso' } });
    const tags = (await call('GET', `/api/v2/members/${ada.id}/tags`, { token: t.key })).body.data.tags.map((x: { key: string }) => x.key);
    expect(tags.sort()).toEqual(['newsletter', 'vip']);
    expect((await call('GET', '/api/v2/members?externalId=OLD-10', { token: t.key })).body.data).toEqual([]);

    const again = await apply(t, membersJob);
    expect(again).toMatchObject({ status: 'completed', progress: { done: 0, skipped: MEMBERS - 4, failed: 4 } });

    // --- Opening balances ---
    const balances = ['externalId,points,earnedAt,expiresAt'];
    // The members the file above created (OLD-10, -20, -40 and -60 were refused).
    const imported = Array.from({ length: 120 }, (_, k) => k + 1).filter((i) => ![10, 20, 40, 60].includes(i));
    for (const i of imported) {
      balances.push(`OLD-${i},${100 + i},2024-05-01,2027-06-30T00:00:00Z`);
      balances.push(`OLD-${i},${i},2025-11-15T10:00:00+01:00,`);
    }
    balances.push('OLD-1,abc,2024-05-01,2027-06-30'); // line 234
    balances.push('OLD-1,10,2024-05-01,2025-01-31'); // line 235: expired
    balances.push('OLD-10,10,2024-05-01,2027-06-30'); // line 236: a member the first file refused
    const balancesJob = await importJob(t, 'balances', 'csv', `${balances.join('\r\n')}\r\n`);
    const bp = await preview(t, balancesJob);
    const sum = (f: (i: number) => number) => imported.reduce((s, i) => s + f(i), 0);
    expect(bp.preview).toMatchObject({ rows: 235, valid: 232, invalid: 3, outcomes: { applied: 232, invalid: 3 } });
    expect(bp.preview.errors).toEqual([
      { line: 234, field: 'points', message: 'must be a whole number' },
      { line: 235, field: 'expiresAt', message: 'is in the past: expired points are not imported' },
      { line: 236, field: 'externalId', message: 'names no member of this workspace' },
    ]);
    expect(bp.preview.totals).toMatchObject({ members: 0, points: sum((i) => 100 + 2 * i) });
    expect(bp.preview.totals.pointsByExpiryMonth).toEqual({ '2027-06': sum((i) => 100 + i), never: sum((i) => i) });
    const before = (await call('GET', `/api/v2/members/${ada.id}/points`, { token: t.key })).body.data;
    expect(before.balance).toBe(0);

    const ba = await apply(t, balancesJob);
    expect(ba).toMatchObject({ status: 'completed', progress: { done: 232, skipped: 0, failed: 3 } });
    const points = (await call('GET', `/api/v2/members/${ada.id}/points?limit=100`, { token: t.key })).body.data;
    // OLD-2 is Ada: 102 expiring at the end of June 2027, 2 without an expiry.
    expect(points).toMatchObject({ balance: 104, lifetime: 0 });
    expect(points.expiring).toEqual([{ points: 102, expiresAt: '2027-06-30T00:00:00.000Z' }]);
    expect(points.entries).toHaveLength(2);
    for (const e of points.entries) expect(e).toMatchObject({ type: 'adjustment', source: { type: 'import', importJobId: balancesJob } });

    const bAgain = await apply(t, balancesJob);
    expect(bAgain).toMatchObject({ status: 'completed', progress: { done: 0, skipped: 232, failed: 3 } });
    expect((await call('GET', `/api/v2/members/${ada.id}/points`, { token: t.key })).body.data.balance).toBe(104);

    // No loyalty.points_earned for imported history: the first one delivered is the sentinel earn's.
    const earn = await call('POST', `/api/v2/members/${ada.id}/points`, { token: t.key, body: { type: 'earn', amount: 1, reason: 'sentinel' } });
    expect(earn.status).toBe(201);
    for (let i = 0; i < 100 && receiver.received.length === 0; i++) await sleep(100);
    await sleep(500);
    expect(receiver.received.map((r) => JSON.parse(r.body).data.resource_id)).toEqual([earn.body.data.entry.id]);

    // --- Tiers ---
    const tiers = [
      '{"externalId":"OLD-2","tier":"gold","qualifiedAt":"2025-03-01","retainedUntil":"2027-03-01"}',
      '{"email":"imported-3@example.test","tier":"diamond","qualifiedAt":"2025-03-01","retainedUntil":"2027-03-01"}',
      'not json',
    ];
    const tiersJob = await importJob(t, 'tiers', 'jsonl', tiers.join('\n'));
    const tp = await preview(t, tiersJob);
    expect(tp.preview.totals.tiers).toEqual({ gold: 1 });
    expect(tp.preview.errors.map((e: { line: number; field: string }) => [e.line, e.field])).toEqual([
      [2, 'tier'],
      [3, '(line)'],
    ]);
    expect(await apply(t, tiersJob)).toMatchObject({ status: 'completed', progress: { done: 1, failed: 2 } });
    expect((await call('GET', `/api/v2/members/${ada.id}`, { token: t.key })).body.data.tier).toBe('gold');
    const status = (await call('GET', `/api/v2/members/${ada.id}/tier`, { token: t.key })).body.data;
    expect(status).toMatchObject({ current: { key: 'gold' }, retainedUntil: '2027-03-01T00:00:00.000Z' });

    // --- Undone: the tiers as they were, the balances taken back from their own lots ---
    const tu = await call('POST', `/api/v2/imports/${tiersJob}/undo`, { token: t.key });
    expect(tu.status, JSON.stringify(tu.body)).toBe(200);
    expect(tu.body.data).toMatchObject({ status: 'undone', undoneAt: expect.any(String) });
    expect((await call('GET', `/api/v2/members/${ada.id}`, { token: t.key })).body.data.tier).toBe('bronze');
    const bu = await call('POST', `/api/v2/imports/${balancesJob}/undo`, { token: t.key });
    expect(bu.status, JSON.stringify(bu.body)).toBe(200);
    const after = (await call('GET', `/api/v2/members/${ada.id}/points?limit=100`, { token: t.key })).body.data;
    // What is left is the sentinel's point, earned today.
    expect(after).toMatchObject({ balance: 1, lifetime: 1 });
    expect(after.expiring).toEqual([]);
    const corrections = after.entries.filter((e: { type: string }) => e.type === 'correction');
    expect(corrections.map((e: { amount: number }) => e.amount).sort((a: number, b: number) => a - b)).toEqual([-102, -2]);
    for (const e of corrections) expect(e.source).toMatchObject({ type: 'import', importJobId: balancesJob });
    const other = (await call('GET', '/api/v2/members?externalId=OLD-7', { token: t.key })).body.data[0];
    expect((await call('GET', `/api/v2/members/${other.id}/points`, { token: t.key })).body.data).toMatchObject({ balance: 0, lifetime: 0 });
    // Undone once; not applied or undone again.
    expect((await call('POST', `/api/v2/imports/${balancesJob}/undo`, { token: t.key })).status).toBe(409);
    expect((await call('POST', `/api/v2/imports/${balancesJob}/apply`, { token: t.key })).status).toBe(409);

    // --- The members job undone: the members it created and nothing touched since are removed, with their
    // tags; those with ledger entries (the balances, even taken back) are kept and counted.
    const vip = async () =>
      (await call('GET', '/api/v2/tags?prefix=vip', { token: t.key })).body.data.find((x: { key: string }) => x.key === 'vip')?.memberCount;
    expect(await vip()).toBe(146);
    const mu = await call('POST', `/api/v2/imports/${membersJob}/undo`, { token: t.key });
    expect(mu.status, JSON.stringify(mu.body)).toBe(200);
    expect(mu.body.data).toMatchObject({ status: 'undone', undo: { undone: MEMBERS - 4 - imported.length, kept: imported.length } });
    expect((await call('GET', '/api/v2/members?externalId=OLD-200', { token: t.key })).body.data).toEqual([]);
    expect((await call('GET', '/api/v2/members?email=imported-201@example.test', { token: t.key })).body.data).toEqual([]);
    expect((await call('GET', '/api/v2/members?externalId=OLD-7', { token: t.key })).body.data).toHaveLength(1);
    expect(await vip()).toBe(imported.filter((i) => i % 2 === 0).length);
    // The e-mail and externalId of a removed member are free again.
    expect((await call('POST', '/api/v2/members', { token: t.key, body: { email: 'imported-201@example.test', externalId: 'OLD-201' } })).status).toBe(201);
    expect((await call('POST', `/api/v2/imports/${membersJob}/undo`, { token: t.key })).status).toBe(409);
  });

  it('a job is previewed before it is applied, and its upload link alone reaches its file', async () => {
    const t = await tenant('imports-order');
    const created = await call('POST', '/api/v2/imports', { token: t.key, body: { kind: 'members', format: 'jsonl' } });
    const id = created.body.data.id;
    expect((await call('POST', `/api/v2/imports/${id}/apply`, { token: t.key })).status).toBe(409);
    expect((await call('POST', `/api/v2/imports/${id}/preview`, { token: t.key })).status).toBe(409);
    const other = await tenant('imports-other');
    expect((await call('GET', `/api/v2/imports/${id}`, { token: other.key })).status).toBe(404);
  });
});
