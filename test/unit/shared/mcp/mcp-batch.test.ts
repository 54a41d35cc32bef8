import { describe, expect, it } from 'vitest';
import { config } from '../../../../shared/platform/config';
import { refuseTooManyWrites, withinBudget, type McpAnswer } from '../../../../shared/mcp/batch';
import type { McpRequestState } from '../../../../shared/mcp/state';

const call = (id: number | undefined, name: string) => ({
  jsonrpc: '2.0',
  ...(id === undefined ? {} : { id }),
  method: 'tools/call',
  params: { name, arguments: {} },
});
const stateOf = (): McpRequestState => ({ ctx: { principal: {} as never, workspaceId: 'wsp_1', requestId: 'req_1' }, outcomes: new Map() });

describe('MCP batch bounds', () => {
  const max = config.mcp.maxWriteCallsPerBatch;

  it('counts write tool calls only: reads, other methods and unknown tools do not count', () => {
    const reads = Array.from({ length: 30 }, (_, i) => call(i, 'get_member'));
    const writes = Array.from({ length: max }, (_, i) => call(100 + i, 'earn_points'));
    const body = [...reads, ...writes, call(999, 'no_such_tool'), { jsonrpc: '2.0', id: 'p', method: 'ping' }];
    expect(refuseTooManyWrites(body, body as never)).toBeUndefined();
    // A single message is never a batch.
    expect(refuseTooManyWrites(call(1, 'earn_points'), [call(1, 'earn_points')] as never)).toBeUndefined();
  });

  it('one write over the bound refuses the whole batch: one error per message with an id, none for notifications', () => {
    const body = [...Array.from({ length: max + 1 }, (_, i) => call(i + 1, 'earn_points')), call(undefined, 'earn_points')];
    const refused = refuseTooManyWrites(body, body as never)!;
    expect(refused.status).toBe(200);
    const answers = JSON.parse(refused.body);
    expect(answers.map((a: { id: number }) => a.id)).toEqual(Array.from({ length: max + 1 }, (_, i) => i + 1));
    for (const a of answers) {
      expect(a).toMatchObject({ jsonrpc: '2.0', error: { code: -32600, data: { code: 'VALIDATION_FAILED' } } });
      expect(a.error.message).toBe(
        `A batch may carry at most ${max} write tool calls; this one has ${max + 2}. Nothing in it was run: send the writes in smaller batches.`,
      );
    }
    const onlyNotifications = Array.from({ length: max + 1 }, () => call(undefined, 'earn_points'));
    expect(refuseTooManyWrites(onlyNotifications, onlyNotifications as never)).toEqual({ status: 202, contentType: null, body: '' });
  });

  it('an answer in time passes as it is', async () => {
    const answer: McpAnswer = { status: 200, contentType: 'application/json', body: '[]' };
    expect(await withinBudget(Promise.resolve(answer), stateOf(), [], 1000)).toBe(answer);
  });

  it('past its budget every message answers OUTCOME_UNKNOWN and every unfinished call is noted for the audit', async () => {
    const state = stateOf();
    state.outcomes.set(JSON.stringify(1), { outcome: 'ok', errorCode: null });
    const messages = [call(1, 'earn_points'), call(2, 'earn_points'), call(undefined, 'earn_points')];
    const started = Date.now();
    const late = await withinBudget(new Promise<McpAnswer>(() => undefined), state, messages as never, 50);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    const answers = JSON.parse(late.body);
    expect(answers.map((a: { id: number }) => a.id)).toEqual([1, 2]);
    for (const a of answers) expect(a.error).toMatchObject({ code: -32001, data: { code: 'OUTCOME_UNKNOWN' } });
    expect(state.outcomes.get('1')).toEqual({ outcome: 'ok', errorCode: null });
    expect(state.outcomes.get('2')).toEqual({ outcome: 'tool_error', errorCode: 'OUTCOME_UNKNOWN' });
    // A budget already spent answers at once.
    expect((await withinBudget(new Promise<McpAnswer>(() => undefined), stateOf(), messages as never, -5)).status).toBe(200);
  });
});
