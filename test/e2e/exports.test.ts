import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { parse } from 'csv-parse/sync';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { LOCAL_BUCKETS } from '../../infra/local/object-store';
import { keyOf } from '../../shared/platform/data/keys';
import { SCOPES } from '../../shared/platform/contract/scopes';
import { newId } from '../../shared/platform/ids';
import { PASSWORD, uniqueEmail, type ApiResponse } from '../support/api';
import { assertDocumentedResponse } from '../support/openapi';
import { documentClientFor, startPlatform, type RunningPlatform } from '../support/platform';
import { startReceiver } from '../support/receiver';
import { addUser } from '../support/table';

/**
 * Data exports through the HTTP API of a runtime of their own, with the caps and the link lifetime
 * shrunk (EXPORT_*), workflow retries shortened, and real peers: s3rver holds the files, links are
 * fetched from it, CSV is read back with csv-parse, notices reach a receiver on 127.0.0.1 and are
 * verified with the standardwebhooks library. Every answer is checked against the OpenAPI document.
 */

const SECTION_CAP = 3;
const ROW_CAP = 5;
const LINK_TTL_SECONDS = 2;

let p: RunningPlatform;
const receivers: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  p = await startPlatform({
    // The shared DynamoDB Local, but an s3rver of its own: a test below deletes the export bucket.
    stores: { dynamodbEndpoint: inject('stores').dynamodbEndpoint },
    env: {
      EXPORT_ARCHIVE_SECTION_CAP: String(SECTION_CAP),
      EXPORT_OPERATIONAL_ROW_CAP: String(ROW_CAP),
      EXPORT_LINK_TTL_SECONDS: String(LINK_TTL_SECONDS),
      LOCAL_WORKFLOW_RETRY_MS: '100',
      WEBHOOK_ALLOW_LOOPBACK: 'true',
    },
  });
});

afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await p?.stop();
});

async function api<T = any>(method: string, path: string, opts: { token?: string; body?: unknown } = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(p.baseUrl + path, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
  const text = await res.text();
  const body = text ? JSON.parse(text) : undefined;
  assertDocumentedResponse({ method, path, status: res.status, body, contentType: res.headers.get('content-type') });
  return { status: res.status, headers: res.headers, body };
}

async function tenant(label: string) {
  const email = uniqueEmail(label);
  const reg = await api('POST', '/api/v2/auth/register', { body: { workspaceName: `${label} ws`, email, password: PASSWORD } });
  expect(reg.status).toBe(201);
  const token: string = reg.body.data.session.token;
  const key = await api('POST', '/api/v2/api-keys', { token, body: { name: 'all', scopes: [...SCOPES] } });
  expect(key.status).toBe(201);
  return { token, key: key.body.data.key as string, workspaceId: reg.body.data.workspace.id as string, email };
}

async function member(key: string, body: Record<string, unknown>) {
  const res = await api('POST', '/api/v2/members', { token: key, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

let orderSeq = 0;
async function order(key: string, memberId: string, total: number) {
  const res = await api('POST', '/api/v2/orders', {
    token: key,
    body: { externalOrderId: `EXP-${Date.now().toString(36)}-${++orderSeq}`, memberId, currency: 'EUR', total, occurredAt: '2026-11-01T10:00:00Z' },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

async function until<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

const archiveJob = (token: string, id: string) =>
  until(async () => {
    const res = await api('GET', '/api/flash/account/data-export', { token });
    const job = res.body.data.jobs.find((j: { id: string }) => j.id === id);
    return job && (job.status === 'completed' || job.status === 'failed') ? job : undefined;
  }, `archive job ${id} to end`);

const operationalJob = (token: string, id: string) =>
  until(async () => {
    const res = await api('GET', `/api/flash/exports/${id}`, { token });
    expect(res.status).toBe(200);
    return res.body.data.status === 'completed' || res.body.data.status === 'failed' ? res.body.data : undefined;
  }, `export job ${id} to end`);

async function download(token: string, id: string): Promise<{ url: string; text: string; disposition: string | null }> {
  const res = await api('GET', `/api/flash/exports/${id}/download`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const file = await fetch(res.body.data.url);
  expect(file.status).toBe(200);
  return { url: res.body.data.url, text: await file.text(), disposition: file.headers.get('content-disposition') };
}

async function auditActions(token: string): Promise<{ action: string; target: { id: string } }[]> {
  const res = await api('GET', '/api/flash/audit?limit=200', { token });
  expect(res.status).toBe(200);
  return res.body.data;
}

describe('workspace export (spec 4.4)', () => {
  it('20 parallel starts make one job; the archive opens with the manifest, counts match, caps apply, and nothing personal or secret is in it', async () => {
    const t = await tenant('archive');
    // Personal data and secrets that must not reach the archive.
    const personal = [
      {
        email: uniqueEmail('erin'),
        firstName: 'Zephyrine',
        lastName: 'Quackenbush',
        phone: '+4915712345678',
        birthDate: '1987-06-05',
        customAttributes: { street: 'Lindenallee 42', shoeSize: 'forty-three-xl' },
      },
      {
        email: uniqueEmail('olaf'),
        firstName: 'Bartholomew',
        lastName: 'Featherstonehaugh',
        phone: '+4915798765432',
        birthDate: '1990-01-02',
        customAttributes: { street: 'Kastanienweg 7' },
      },
      { email: uniqueEmail('ines'), firstName: 'Ingeborg', lastName: 'Wolkenstein', customAttributes: { favourite: 'pistachio-gelato' } },
      { email: uniqueEmail('ugo'), firstName: 'Ugolino', lastName: 'Brambilla' },
    ];
    const members: any[] = [];
    for (const body of personal) members.push(await member(t.key, body));
    await order(t.key, members[0].id, 19.99);
    await order(t.key, members[1].id, 5);
    const pool = await api('POST', '/api/v2/coupons/pools', {
      token: t.key,
      body: { name: 'Autumn', discount: { type: 'percent', value: 20 }, codeConfig: { mode: 'generated', prefix: 'AUT-' }, stock: 3 },
    });
    expect(pool.status).toBe(201);
    const issued = await api('POST', '/api/v2/coupons/issue', { token: t.key, body: { poolId: pool.body.data.id, memberId: members[0].id } });
    expect(issued.status).toBe(201);
    const webhook = await api('POST', '/api/v2/webhooks', {
      token: t.key,
      body: { url: 'https://example.com/hook', description: 'x', eventTypes: ['member.created'] },
    });
    const signing = await api('POST', '/api/flash/exports/signing-secret', { token: t.token });
    expect(signing.status).toBe(201);

    const starts = await Promise.all(Array.from({ length: 20 }, () => api('POST', '/api/flash/account/data-export', { token: t.token })));
    for (const s of starts) expect(s.status).toBe(202);
    const ids = new Set(starts.map((s) => s.body.data.id));
    // Each job was made by exactly one start; every other start was answered with a live job.
    expect(starts.filter((s) => s.body.data.deduped === false)).toHaveLength(ids.size);
    expect(starts.every((s) => s.body.data.status === 'pending')).toBe(true);
    const jobs = await Promise.all([...ids].map((j) => archiveJob(t.token, j)));
    for (const j of jobs) expect(j, JSON.stringify(j)).toMatchObject({ status: 'completed', error: null });
    // Starts answered while a job is live share it. On a busy machine the first job (about a second)
    // can complete before the last of the 20 starts is handled; that start then makes the next job.
    // The lock itself (one live job, taken in the job's transaction) has its own tests.
    expect(ids.size).toBeLessThan(starts.length / 2);
    const byStart = [...jobs].sort((a, b) => (a.createdAt < b.createdAt ? -1 : 1));
    const job = byStart[0]!;
    const id = job.id as string;
    const list = await api('GET', '/api/flash/account/data-export', { token: t.token });
    expect(list.body.data.jobs.map((j: { id: string }) => j.id)).toEqual([...byStart].reverse().map((j) => j.id));
    expect(list.body.data.dataHandling.summary).toMatch(/personal data/);
    expect(list.body.data.dataHandling.facts.join(' ')).toContain(`at most ${SECTION_CAP}`);

    const { text, disposition } = await download(t.token, id);
    expect(text.startsWith('{"manifest":')).toBe(true);
    expect(disposition).toMatch(/^attachment; filename="workspace-export-\d{4}-\d{2}-\d{2}-exp_[0-9a-z]+\.json"$/);
    const doc = JSON.parse(text);
    expect(Object.keys(doc)).toEqual(['manifest', 'members', 'orders', 'campaigns']);
    for (const s of doc.manifest.sections) expect(s.recordCount, s.name).toBe(doc[s.name].length);
    expect(doc.manifest.sections).toEqual([
      { name: 'members', recordCount: SECTION_CAP, capped: true },
      { name: 'orders', recordCount: 2, capped: false },
      { name: 'campaigns', recordCount: 1, capped: false },
    ]);
    expect(job.rowCount).toBe(SECTION_CAP + 2 + 1);
    expect(doc.campaigns[0].counts).toMatchObject({ issued: 1, remaining: 2 });

    // The exclusion scan: no personal value, credential or secret anywhere in the archive.
    const forbidden = [
      ...personal.flatMap((m) => [m.email, m.firstName, m.lastName, m.phone, m.birthDate, ...Object.values(m.customAttributes ?? {})]),
      t.email,
      t.key,
      t.token,
      PASSWORD,
      webhook.body.data.secret,
      signing.body.data.secret,
      issued.body.data.code,
      'fl_live_',
      'fl_sess_',
      'fl_reset_',
      'whsec_',
      'passwordHash',
      'keyHash',
      'scrypt',
      '@',
    ].filter((v): v is string => typeof v === 'string');
    for (const value of forbidden) expect(text.includes(value), `archive holds ${value}`).toBe(false);
    for (const m of doc.members) expect(Object.keys(m).sort()).toEqual(['createdAt', 'id', 'orderCount', 'points', 'status', 'tagCount', 'tier', 'updatedAt']);

    // Audited: each request, on the job it made or shared (all 20 on the first job unless it ended
    // before the last starts were handled, see above), and the link.
    const entries = await auditActions(t.token);
    for (const jobId of ids) {
      const answered = starts.filter((s) => s.body.data.id === jobId).length;
      expect(
        entries.filter((e) => e.action === 'export.requested' && e.target.id === jobId),
        jobId,
      ).toHaveLength(answered);
    }
    expect(entries.filter((e) => e.action === 'export.requested')).toHaveLength(20);
    expect(entries.filter((e) => e.action === 'export.link_issued' && e.target.id === id)).toHaveLength(1);
  });

  it('a download before completion is 409 and mints nothing; a job past its deadline is failed, never left running', async () => {
    const t = await tenant('pending');
    const { doc, tableName } = { doc: documentClientFor(await p.runtime()), tableName: (await p.runtime()).tableName };
    const now = Date.now();
    const job = (id: string, deadlineAt: number) => ({
      ...keyOf('exportJob', { workspaceId: t.workspaceId, jobId: id }),
      entity: 'exportJob',
      id,
      workspaceId: t.workspaceId,
      kind: 'archive',
      status: 'running',
      rowCount: null,
      createdAt: new Date(now).toISOString(),
      startedAt: new Date(now).toISOString(),
      completedAt: null,
      error: null,
      deadlineAt,
      objectKey: null,
      dataset: null,
      format: null,
      capped: null,
      webhookUrl: null,
    });
    const live = newId('exp', now - 1000);
    const stale = newId('exp', now - 2000);
    await doc.send(new PutCommand({ TableName: tableName, Item: job(live, Math.floor(now / 1000) + 3600) }));
    await doc.send(
      new PutCommand({
        TableName: tableName,
        Item: {
          ...keyOf('exportArchiveLock', { workspaceId: t.workspaceId }),
          entity: 'exportArchiveLock',
          jobId: live,
          deadlineAt: Math.floor(now / 1000) + 3600,
        },
      }),
    );
    await doc.send(new PutCommand({ TableName: tableName, Item: job(stale, Math.floor(now / 1000) - 1) }));

    const early = await api('GET', `/api/flash/exports/${live}/download`, { token: t.token });
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe('EXPORT_NOT_COMPLETED');
    expect((await auditActions(t.token)).some((e) => e.action === 'export.link_issued')).toBe(false);
    // The live job holds the lock: a start answers it.
    const again = await api('POST', '/api/flash/account/data-export', { token: t.token });
    expect(again.body.data).toEqual({ id: live, status: 'pending', deduped: true });

    const jobs = (await api('GET', '/api/flash/account/data-export', { token: t.token })).body.data.jobs;
    const overdue = jobs.find((j: { id: string }) => j.id === stale);
    expect(overdue.status).toBe('failed');
    expect(overdue.error).toMatch(/did not finish/);
    expect(jobs.find((j: { id: string }) => j.id === live).status).toBe('running');
  });

  it('a link fetched after it expired is refused; a new one can be asked for', async () => {
    const t = await tenant('expiry');
    await member(t.key, { email: uniqueEmail('x') });
    const start = await api('POST', '/api/flash/account/data-export', { token: t.token });
    await archiveJob(t.token, start.body.data.id);
    const { url } = await download(t.token, start.body.data.id);
    // Refused once its lifetime is over (asked until then, at most 1.5 s past it).
    expect(await until(async () => ((await fetch(url)).status === 403 ? 403 : undefined), 'the link to expire', (LINK_TTL_SECONDS + 1.5) * 1000)).toBe(403);
    const fresh = await download(t.token, start.body.data.id);
    expect(fresh.url).not.toBe(url);
    expect(fresh.text.startsWith('{"manifest":')).toBe(true);
  });

  it('non-admins get 403 on every export route; another workspace sees 404', async () => {
    const a = await tenant('owner-a');
    const b = await tenant('owner-b');
    const start = await api('POST', '/api/flash/account/data-export', { token: a.token });
    const id = start.body.data.id as string;
    await archiveJob(a.token, id);
    const runtime = await p.runtime();
    const m = await addUser(a.workspaceId, 'member', { doc: documentClientFor(runtime), tableName: runtime.tableName });
    const login = await api('POST', '/api/v2/auth/login', { body: m });
    const memberSession = login.body.data.session.token as string;
    const routes: [string, string, unknown?][] = [
      ['POST', '/api/flash/account/data-export'],
      ['GET', '/api/flash/account/data-export'],
      ['GET', `/api/flash/exports/${id}/download`],
      ['POST', '/api/flash/exports', { entity: 'members', format: 'csv' }],
      ['GET', `/api/flash/exports/${id}`],
      ['GET', '/api/flash/exports'],
      ['POST', '/api/flash/exports/signing-secret'],
    ];
    for (const token of [memberSession, a.key]) {
      for (const [method, path, body] of routes) expect((await api(method, path, { token, body })).status, `${method} ${path}`).toBe(403);
    }
    expect((await api('GET', `/api/flash/exports/${id}/download`, { token: b.token })).status).toBe(404);
    expect((await api('GET', `/api/flash/exports/${id}`, { token: b.token })).status).toBe(404);
    expect((await api('GET', '/api/flash/account/data-export', { token: b.token })).body.data.jobs).toEqual([]);
    expect((await api('GET', '/api/flash/exports', { token: b.token })).body.data).toEqual([]);
  });
});

describe('operational export (spec 4.5)', () => {
  const tricky = [
    { firstName: 'Ann, the "first"', lastName: 'Line\nbreak', customAttributes: { note: 'a,b;"c"' } },
    { firstName: 'Zoë', lastName: 'Çelik-Øster 東京' },
  ];

  it('members and orders in CSV and JSONL: parsed back with a real CSV parser, same rows both ways', async () => {
    const t = await tenant('operational');
    const ms: any[] = [];
    for (const body of tricky) ms.push(await member(t.key, { email: uniqueEmail('op'), ...body }));
    const orders = [await order(t.key, ms[0].id, 12.34), await order(t.key, ms[1].id, 7)];
    const files: Record<string, string> = {};
    for (const entity of ['members', 'orders'] as const) {
      for (const format of ['csv', 'jsonl'] as const) {
        const res = await api('POST', '/api/flash/exports', { token: t.token, body: { entity, format } });
        expect(res.status).toBe(202);
        expect(res.body.data.status).toBe('pending');
        const job = await operationalJob(t.token, res.body.data.id);
        expect(job).toMatchObject({ status: 'completed', entity, format, rowCount: 2, capped: false, error: null });
        const file = await download(t.token, job.id);
        expect(file.disposition).toContain(`.${format}"`);
        files[`${entity}.${format}`] = file.text;
      }
    }
    const memberCsv = parse(files['members.csv']!, { columns: true }) as Record<string, string>[];
    expect(Object.keys(memberCsv[0]!)).toEqual([
      'id',
      'externalId',
      'email',
      'firstName',
      'lastName',
      'phone',
      'birthDate',
      'status',
      'tier',
      'pointsBalance',
      'pointsPending',
      'pointsLifetime',
      'orderCount',
      'tags',
      'customAttributes',
      'createdAt',
      'updatedAt',
    ]);
    const byId = new Map(memberCsv.map((r) => [r.id, r]));
    expect(byId.get(ms[0].id)).toMatchObject({ firstName: 'Ann, the "first"', lastName: 'Line\nbreak', email: ms[0].email, pointsBalance: '12' });
    expect(JSON.parse(byId.get(ms[0].id)!.customAttributes!)).toEqual({ note: 'a,b;"c"' });
    expect(byId.get(ms[1].id)).toMatchObject({ firstName: 'Zoë', lastName: 'Çelik-Øster 東京' });
    // RFC 4180 on the wire: quotes doubled inside a quoted field.
    expect(files['members.csv']).toContain('"Ann, the ""first"""');

    const memberLines = files['members.jsonl']!.trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(memberLines.map((l) => l.id).sort()).toEqual(memberCsv.map((r) => r.id).sort());
    expect(memberLines.find((l) => l.id === ms[0].id).customAttributes).toEqual({ note: 'a,b;"c"' });

    const orderCsv = parse(files['orders.csv']!, { columns: true }) as Record<string, string>[];
    expect(orderCsv.map((r) => r.externalOrderId).sort()).toEqual(orders.map((o) => o.externalOrderId).sort());
    expect(orderCsv.find((r) => r.memberId === ms[0].id)).toMatchObject({ currency: 'EUR', total: '12.34' });
    const orderLines = files['orders.jsonl']!.trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(orderLines.find((l) => l.memberId === ms[1].id)).toMatchObject({ total: 7, currency: 'EUR' });
  });

  it('the ledger journal in CSV and JSONL: every entry with its type, source and the report figure it counts in', async () => {
    const t = await tenant('op-ledger');
    const [ada, ben] = [await member(t.key, { email: uniqueEmail('ledger') }), await member(t.key, { email: uniqueEmail('ledger') })];
    for (const change of [
      { type: 'earn', amount: 100, reason: 'welcome, "gift"' },
      { type: 'deduct', amount: 30, reason: 'support' },
    ]) {
      expect((await api('POST', `/api/v2/members/${ada.id}/points`, { token: t.key, body: change })).status).toBe(201);
    }
    const bens = await order(t.key, ben.id, 12.34);
    const files: Record<string, string> = {};
    for (const format of ['csv', 'jsonl'] as const) {
      const res = await api('POST', '/api/flash/exports', { token: t.token, body: { entity: 'ledger', format } });
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      const job = await operationalJob(t.token, res.body.data.id);
      expect(job).toMatchObject({ status: 'completed', entity: 'ledger', format, rowCount: 3, capped: false });
      files[format] = (await download(t.token, job.id)).text;
    }
    const rows = parse(files.csv!, { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0]!)).toEqual([
      'id',
      'memberId',
      'sequence',
      'createdAt',
      'type',
      'amount',
      'balanceAfter',
      'reportFigure',
      'sourceType',
      'orderId',
      'externalOrderId',
      'campaignId',
      'apiKeyId',
      'reason',
    ]);
    const byMember = (id: string) =>
      rows.filter((r) => r.memberId === id).map((r) => [r.type, r.amount, r.balanceAfter, r.reportFigure, r.sourceType, r.reason]);
    expect(byMember(ada.id)).toEqual([
      ['earn', '100', '100', 'issuedManual', 'manual', 'welcome, "gift"'],
      ['deduct', '-30', '70', 'deducted', 'manual', 'support'],
    ]);
    expect(byMember(ben.id)).toEqual([['earn', '12', '12', 'issuedBase', 'order', `Order ${bens.externalOrderId}`]]);
    const lines = files
      .jsonl!.trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.id).sort()).toEqual(rows.map((r) => r.id).sort());
    expect(lines.find((l) => l.memberId === ben.id)).toMatchObject({ amount: 12, orderId: bens.id, externalOrderId: bens.externalOrderId, campaignId: null });
  });

  it('CSV cells that a spreadsheet would run as a formula start with a single quote; JSONL keeps them as they are', async () => {
    const t = await tenant('op-formula');
    const m = await member(t.key, {
      email: uniqueEmail('formula'),
      firstName: '=HYPERLINK("http://x.example","y")',
      lastName: '@SUM(A1)',
      phone: '+49 30 123456',
    });
    const files: Record<string, string> = {};
    for (const format of ['csv', 'jsonl'] as const) {
      const res = await api('POST', '/api/flash/exports', { token: t.token, body: { entity: 'members', format } });
      const job = await operationalJob(t.token, res.body.data.id);
      expect(job.status).toBe('completed');
      files[format] = (await download(t.token, job.id)).text;
    }
    const row = (parse(files.csv!, { columns: true }) as Record<string, string>[]).find((r) => r.id === m.id)!;
    expect(row).toMatchObject({
      firstName: '\'=HYPERLINK("http://x.example","y")',
      lastName: "'@SUM(A1)",
      phone: "'+49 30 123456",
      email: m.email,
      pointsBalance: '0',
    });
    const line = files
      .jsonl!.trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l))
      .find((l) => l.id === m.id);
    expect(line).toMatchObject({ firstName: '=HYPERLINK("http://x.example","y")', lastName: '@SUM(A1)', phone: '+49 30 123456' });
  });

  it('is capped at the row cap with capped: true', async () => {
    const t = await tenant('op-cap');
    for (let i = 0; i < ROW_CAP + 2; i++) await member(t.key, { email: uniqueEmail(`cap${i}`) });
    const res = await api('POST', '/api/flash/exports', { token: t.token, body: { entity: 'members', format: 'csv' } });
    const job = await operationalJob(t.token, res.body.data.id);
    expect(job).toMatchObject({ status: 'completed', rowCount: ROW_CAP, capped: true });
    const rows = parse((await download(t.token, job.id)).text, { columns: true }) as unknown[];
    expect(rows).toHaveLength(ROW_CAP);
  });

  // The webhooks' address rules: in AWS only public https targets; this runtime's loopback allowance
  // also lets http reach 127.0.0.1 (and named hosts are checked when the notice is sent).
  it('refuses a webhookUrl the webhook rules refuse (or without a signing secret) with 422, writing nothing', async () => {
    const t = await tenant('op-422');
    const noSecret = await api('POST', '/api/flash/exports', {
      token: t.token,
      body: { entity: 'members', format: 'csv', webhookUrl: 'https://example.com/x' },
    });
    expect(noSecret.status).toBe(422);
    await api('POST', '/api/flash/exports/signing-secret', { token: t.token });
    for (const webhookUrl of [
      'http://10.0.0.1/x',
      'https://10.0.0.1/x',
      'https://169.254.169.254/latest',
      'ftp://example.com/x',
      'https://user:pw@example.com/x',
      'not a url',
    ]) {
      const res = await api('POST', '/api/flash/exports', { token: t.token, body: { entity: 'members', format: 'csv', webhookUrl } });
      expect(res.status, webhookUrl).toBe(422);
      expect(res.body.error.details[0].field).toBe('webhookUrl');
    }
    expect((await auditActions(t.token)).filter((e) => e.action === 'export.requested')).toHaveLength(0);
  });

  it('notifies on completion with a signed notice (standardwebhooks verifies it) carrying a working short-lived link, retried on 5xx with the same webhook-id', async () => {
    const t = await tenant('op-notice');
    await member(t.key, { email: uniqueEmail('n') });
    const secret = (await api('POST', '/api/flash/exports/signing-secret', { token: t.token })).body.data.secret as string;
    expect(secret).toMatch(/^whsec_/);
    const receiver = await startReceiver((n) => ({ status: n === 1 ? 503 : 200 }));
    receivers.push(receiver);
    const res = await api('POST', '/api/flash/exports', { token: t.token, body: { entity: 'members', format: 'jsonl', webhookUrl: receiver.url } });
    const [first, second] = await receiver.waitFor(2, 30_000);
    expect(first!.headers['webhook-id']).toBe(second!.headers['webhook-id']);
    const notice = new Webhook(secret).verify(second!.body, {
      'webhook-id': String(second!.headers['webhook-id']),
      'webhook-timestamp': String(second!.headers['webhook-timestamp']),
      'webhook-signature': String(second!.headers['webhook-signature']),
    }) as any;
    expect(notice).toMatchObject({
      type: 'export.completed',
      data: { jobId: res.body.data.id, entity: 'members', format: 'jsonl', status: 'completed', rowCount: 1, capped: false },
    });
    expect(String(second!.headers['webhook-id'])).toBe(notice.id);
    const file = await fetch(notice.data.url);
    expect(file.status).toBe(200);
    expect((await file.text()).trim().split('\n')).toHaveLength(1);
    expect(Date.parse(notice.data.expiresAt) - Date.parse(notice.created_at)).toBe(LINK_TTL_SECONDS * 1000);
    // Another secret does not verify it.
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(second!.body, second!.headers as Record<string, string>)).toThrow();
  });

  it('a failed export is failed with its error and notifies too', async () => {
    const t = await tenant('op-fail');
    await member(t.key, { email: uniqueEmail('f') });
    const secret = (await api('POST', '/api/flash/exports/signing-secret', { token: t.token })).body.data.secret as string;
    const receiver = await startReceiver();
    receivers.push(receiver);
    // A real store fault: the export bucket disappears from s3rver under the run.
    await rm(join(p.dataDir, 's3', LOCAL_BUCKETS.exports), { recursive: true, force: true });
    try {
      const res = await api('POST', '/api/flash/exports', { token: t.token, body: { entity: 'members', format: 'csv', webhookUrl: receiver.url } });
      const job = await operationalJob(t.token, res.body.data.id);
      expect(job.status).toBe('failed');
      expect(job.error).toMatch(/^The export failed: /);
      expect(job.rowCount).toBeNull();
      const [r] = await receiver.waitFor(1, 30_000);
      const notice = new Webhook(secret).verify(r!.body, r!.headers as Record<string, string>) as any;
      expect(notice).toMatchObject({ type: 'export.failed', data: { jobId: job.id, status: 'failed', error: job.error } });
      expect(notice.data.url).toBeUndefined();
      const link = await api('GET', `/api/flash/exports/${job.id}/download`, { token: t.token });
      expect(link.status).toBe(409);
    } finally {
      const runtime = await p.runtime();
      const s3 = new S3Client({
        endpoint: runtime.s3Endpoint,
        forcePathStyle: true,
        region: 'eu-west-1',
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      });
      await s3.send(new CreateBucketCommand({ Bucket: LOCAL_BUCKETS.exports }));
    }
  });
});

describe('export schedules API', () => {
  it('creates, lists and deletes schedules (audited); refuses bad rules with 422', async () => {
    const t = await tenant('schedules');
    const bad = [
      { entity: 'members', format: 'csv', frequency: 'weekly', hour: 6, timezone: 'Europe/Berlin' },
      { entity: 'members', format: 'csv', frequency: 'daily', hour: 6, timezone: 'Mars/Olympus' },
      { entity: 'members', format: 'csv', frequency: 'daily', hour: 24, timezone: 'UTC' },
      { entity: 'coupons', format: 'csv', frequency: 'daily', hour: 6, timezone: 'UTC' },
    ];
    for (const body of bad) expect((await api('POST', '/api/flash/exports/schedules', { token: t.token, body })).status, JSON.stringify(body)).toBe(422);
    const created = await api('POST', '/api/flash/exports/schedules', {
      token: t.token,
      body: { entity: 'orders', format: 'jsonl', frequency: 'weekly', weekday: 'monday', hour: 7, timezone: 'Europe/Berlin' },
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ entity: 'orders', format: 'jsonl', frequency: 'weekly', weekday: 'monday', hour: 7, lastPeriod: null });
    const id = created.body.data.id as string;
    const list = await api('GET', '/api/flash/exports/schedules', { token: t.token });
    expect(list.body.data.map((s: { id: string }) => s.id)).toEqual([id]);
    const other = await tenant('schedules-other');
    expect((await api('GET', '/api/flash/exports/schedules', { token: other.token })).body.data).toEqual([]);
    expect((await api('DELETE', `/api/flash/exports/schedules/${id}`, { token: other.token })).status).toBe(404);
    expect((await api('DELETE', `/api/flash/exports/schedules/${id}`, { token: t.key })).status).toBe(403);
    expect((await api('DELETE', `/api/flash/exports/schedules/${id}`, { token: t.token })).status).toBe(204);
    expect((await api('DELETE', `/api/flash/exports/schedules/${id}`, { token: t.token })).status).toBe(404);
    const actions = (await auditActions(t.token)).map((e) => e.action);
    expect(actions).toContain('export_schedule.created');
    expect(actions).toContain('export_schedule.deleted');
  });
});
