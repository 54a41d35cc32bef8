import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startPlatform, type RunningPlatform } from '../support/platform';
import { mcpClient, toolError } from '../support/mcp';

/** A platform of its own, with a write-rate guard small enough to reach (as test/e2e/objects-guard.test.ts). */
let p: RunningPlatform;

beforeAll(async () => {
  p = await startPlatform({ stores: inject('stores'), env: { OBJECTS_RATE_BURST: '3', OBJECTS_RATE_PER_SECOND: '1', OBJECTS_RATE_GUARD_TIMEOUT_MS: '10000' } });
});

afterAll(async () => {
  await p?.stop();
});

describe('MCP writes pass the per-key write-rate guard', () => {
  it('over the budget a write tool is refused (RATE_LIMITED, audited as refused); nothing is applied for it; reads pass', async () => {
    const api = async (method: string, path: string, token?: string, body?: unknown) => {
      const res = await fetch(p.baseUrl + path, {
        method,
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json().catch(() => undefined)) as any };
    };
    const reg = await api('POST', '/api/v2/auth/register', undefined, {
      workspaceName: 'Guard',
      email: `mcp-guard-${Date.now()}@example.test`,
      password: 'long enough password',
    });
    const session = reg.body.data.session.token as string;
    const key = (await api('POST', '/api/v2/api-keys', session, { name: 'agent', preset: 'write' })).body.data;
    const member = (await api('POST', '/api/v2/members', key.key, { email: `m-${Date.now()}@example.test` })).body.data;
    const { client } = await mcpClient(p.baseUrl, key.key);
    const startedAt = Date.now();
    const results = await Promise.all(
      Array.from({ length: 12 }, () => client.callTool({ name: 'earn_points', arguments: { memberId: member.id, amount: 1, reason: 'burst' } })),
    );
    // The one-second windows the burst spanned (two, unless a loaded machine stretched it over more).
    const windows = Math.floor(Date.now() / 1000) - Math.floor(startedAt / 1000) + 1;
    const applied = results.filter((r) => !r.isError).length;
    const refused = results.filter((r) => r.isError).map((r) => toolError(r));
    // Fixed windows: at most 3 in each second the burst spanned, capped by 10 per 10 s.
    const allowed = Math.min(3 * windows, 10);
    expect(applied).toBeLessThanOrEqual(allowed);
    expect(refused.length).toBeGreaterThanOrEqual(12 - allowed);
    expect(refused.length).toBeGreaterThan(0);
    for (const e of refused) expect(e.code).toBe('RATE_LIMITED');
    const balance = (await api('GET', `/api/v2/members/${member.id}`, key.key)).body.data.points.balance;
    expect(balance).toBe(applied);
    // Reads are not writes: they pass while the writes are refused.
    expect((await client.callTool({ name: 'get_member', arguments: { memberId: member.id } })).isError).toBeFalsy();
    const audit = await api('GET', `/api/flash/audit?action=mcp.tool_called&actor=${key.id}&limit=50`, session);
    const refusals = audit.body.data.filter((e: any) => e.reason === 'refused');
    expect(refusals).toHaveLength(refused.length);
    for (const e of refusals) expect(e.mcp).toMatchObject({ tool: 'earn_points', errorCode: 'RATE_LIMITED' });
  });
});
