import { beforeAll, describe, expect, inject, it } from 'vitest';
import { countStoreCalls } from '../../../../shared/platform/data/store-calls';
import { call } from '../../../support/api';
import { tenant } from '../../../support/fixtures';
import { inProcess } from '../../../support/in-process';
import { runtimeOf } from '../../../support/platform';

/**
 * The audit area may only read the table (its function has no write grant in AWS): reading the
 * trail, every filter and every refusal included, sends no write to the store. Run in this process
 * against the platform's table, so every store request of the request is counted.
 */

beforeAll(async () => {
  const runtime = await runtimeOf(inject('dataDir'));
  Object.assign(process.env, { STAGE: 'local', TABLE_NAME: runtime.tableName, DYNAMODB_ENDPOINT: runtime.dynamodbEndpoint, AWS_REGION: 'eu-west-1' });
});

const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);

describe('reading the audit log', () => {
  it('never writes, whatever it is asked', async () => {
    const t = await tenant('audit-read');
    // Something to read, made through the platform.
    const made = await call('POST', '/api/v2/api-keys', { token: t.token, body: { name: 'k', scopes: ['members:read'] } });
    expect(made.status).toBe(201);
    const counter = countStoreCalls();
    // An API key is refused here (an admin session reads the trail) without stamping its lastUsedAt.
    const byKey = await counter.during(() => inProcess('GET', '/api/flash/audit', { token: made.body.data.key }));
    expect(byKey.result.status).toBe(403);
    expect(
      byKey.calls.filter((c) => WRITES.has(c.operation) || c.itemsWritten > 0),
      JSON.stringify(byKey.calls),
    ).toEqual([]);
    for (const query of [
      '',
      '?limit=1',
      '?action=api_key.created',
      `?actor=${t.userId}`,
      '?from=2026-01-01T00:00:00Z&to=2026-01-01T00:00:00.001Z',
      '?cursor=garbage',
      '?actor=nobody',
    ]) {
      const { result, calls } = await counter.during(() => inProcess('GET', `/api/flash/audit${query}`, { token: t.token }));
      expect(result.status, query).toBeLessThan(500);
      expect(
        calls.filter((c) => WRITES.has(c.operation) || c.itemsWritten > 0),
        `${query}: ${JSON.stringify(calls)}`,
      ).toEqual([]);
    }
    const first = await counter.during(() => inProcess('GET', '/api/flash/audit?limit=1', { token: t.token }));
    const next = first.result.body.nextCursor as string | null;
    if (next) {
      const { calls } = await counter.during(() => inProcess('GET', `/api/flash/audit?limit=1&cursor=${encodeURIComponent(next)}`, { token: t.token }));
      expect(calls.filter((c) => WRITES.has(c.operation))).toEqual([]);
    }
  });
});
