import { describe, expect, it } from 'vitest';
import { config } from '../../shared/platform/config';
import { call, createKey, registerAccount } from '../support/api';
import { newMember } from '../support/fixtures';

/** JSON-RPC batches: bounded in their writes, answered per message, every call audited. */

const earn = (id: number, memberId: string) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'earn_points', arguments: { memberId, amount: 1, reason: 'batch' } },
});

async function setup(label: string) {
  const account = await registerAccount(label);
  const key = await createKey(account.token, { name: 'agent', preset: 'write' });
  const member = await newMember(key.key);
  const audit = async (action: string) =>
    (await call('GET', `/api/flash/audit?action=${action}&actor=${key.id}&limit=200`, { token: account.token })).body.data as any[];
  const balance = async () => (await call('GET', `/api/v2/members/${member.id}`, { token: key.key })).body.data.points.balance as number;
  return { key, member, audit, balance };
}

describe('MCP batches', () => {
  it(`a batch of more than ${config.mcp.maxWriteCallsPerBatch} write calls is refused up front: an error per message, nothing applied, every call audited`, async () => {
    const { key, member, audit, balance } = await setup('mcp-batch-writes');
    const batch = [
      ...Array.from({ length: 60 }, (_, i) => earn(i + 1, member.id)),
      { jsonrpc: '2.0', id: 'p', method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
    ];
    const res = await call('POST', '/api/mcp', { token: key.key, body: batch });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(61);
    expect(res.body.map((a: any) => a.id)).toEqual([...Array.from({ length: 60 }, (_, i) => i + 1), 'p']);
    for (const a of res.body) {
      expect(a.error.code).toBe(-32600);
      expect(a.error.message).toContain(`at most ${config.mcp.maxWriteCallsPerBatch} write tool calls`);
    }
    expect(await balance()).toBe(0);
    const calls = await audit('mcp.tool_called');
    expect(calls).toHaveLength(60);
    for (const e of calls) expect(e).toMatchObject({ reason: 'invalid', mcp: { tool: 'earn_points' } });
  });

  it('a batch within the bound runs: one answer per message, each call audited once', async () => {
    const { key, member, audit, balance } = await setup('mcp-batch-ok');
    const n = config.mcp.maxWriteCallsPerBatch;
    const res = await call('POST', '/api/mcp', { token: key.key, body: Array.from({ length: n }, (_, i) => earn(i + 1, member.id)) });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(n);
    for (const a of res.body) expect(a.result.isError ?? false).toBe(false);
    expect(await balance()).toBe(n);
    const calls = await audit('mcp.tool_called');
    expect(calls).toHaveLength(n);
    for (const e of calls) expect(e.reason).toBeNull();
  });

  it(`a batch of more than ${config.mcp.maxBatchMessages} messages is a 400 with one audit entry, not one per message`, async () => {
    const { key, audit } = await setup('mcp-batch-huge');
    const res = await call('POST', '/api/mcp', { token: key.key, body: Array.from({ length: 150 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'ping' })) });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('BAD_REQUEST');
    const entries = await audit('mcp.method_called');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ reason: 'invalid', mcp: { method: 'batch', tool: null } });
  });

  it('a number beyond 2^53 in a tool argument is a JSON-RPC error naming the argument, not a failure', async () => {
    const { key, member, balance } = await setup('mcp-batch-number');
    const res = await call('POST', '/api/mcp', {
      token: key.key,
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'update_member', arguments: { memberId: member.id, changes: { customAttributes: { big: 9007199254740993 } } } },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.error.code).toBe(-32602);
    expect(res.body.error.data.details).toEqual([
      { field: 'changes.customAttributes.big', message: 'must be 0 or between 1e-130 and 9007199254740991 in magnitude' },
    ]);
    expect(await balance()).toBe(0);
  });
});
