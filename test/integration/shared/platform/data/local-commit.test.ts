import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import type { HttpResult } from '../../../../../shared/http/types';
import { call } from '../../../../support/api';
import { httpEvent } from '../../../../support/faulty-store';
import { tenant, type Tenant } from '../../../../support/fixtures';
import { lossyProxy, TRANSACT, type LossyProxy } from '../../../../support/lossy-proxy';
import { runtimeOf } from '../../../../support/platform';

/**
 * DynamoDB Local answers a TransactWriteItems before its SQLite COMMIT has run, so a request answers
 * only once a read after its last transaction came back (that read waits for the commit). Here the
 * handlers of this process reach the platform's DynamoDB Local through a proxy that dies just after
 * passing on the first transaction's answer: the commit cannot be confirmed, and the request must not
 * answer 201 for a write the store may have lost.
 */
let proxy: LossyProxy;
let t: Tenant;

beforeAll(async () => {
  const runtime = await runtimeOf(inject('dataDir'));
  t = await tenant('local-commit');
  proxy = await lossyProxy(new URL(runtime.dynamodbEndpoint), { swallow: 0, target: TRANSACT, dieAfterAnswer: true });
  // Read once by the process's clients, on first use (none so far in this file).
  process.env.TABLE_NAME = runtime.tableName;
  process.env.DYNAMODB_ENDPOINT = proxy.endpoint;
  process.env.STAGE = 'local';
});
afterAll(() => proxy.close());

describe('a request on DynamoDB Local', () => {
  it('whose commit cannot be confirmed after the answer is 503 OUTCOME_UNKNOWN, not 201', async () => {
    const { handler } = await import('../../../../../functions/members/handler');
    const externalId = `local-commit-${Date.now()}`;
    const res = (await handler(httpEvent('POST', '/api/v2/members', { headers: { authorization: `Bearer ${t.key}` }, body: { externalId } }), {
      awsRequestId: 'local-commit',
      functionName: 'members',
    } as never)) as HttpResult;
    expect(proxy.requests).toBe(1);
    expect(res.statusCode, res.body).toBe(503);
    expect(res.headers!['retry-after']).toBe('1');
    expect(JSON.parse(res.body!).error.code).toBe('OUTCOME_UNKNOWN');
    // The store died only after answering: the member was in fact created, as OUTCOME_UNKNOWN allows.
    const found = await call('GET', `/api/v2/members?externalId=${externalId}`, { token: t.key });
    expect(found.body.data).toHaveLength(1);
  }, 30_000);
});
