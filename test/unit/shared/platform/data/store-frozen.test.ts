import { CreateTableCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { config } from '../../../../../shared/platform/config';
import { createDocumentClient } from '../../../../../shared/platform/data/client';
import { isTransientDependencyError } from '../../../../../shared/platform/data/errors';
import { putItem, updateItem } from '../../../../../shared/platform/data/items';
import { transactWrite } from '../../../../../shared/platform/data/transactions';
import { AppError } from '../../../../../shared/platform/errors';
import type { HttpResult } from '../../../../../shared/http/types';
import { frozenStore, httpEvent, SOME_API_KEY, type FrozenStore } from '../../../../support/faulty-store';

/**
 * DynamoDB frozen (its JVM stopped with SIGSTOP): connections are accepted and never answered.
 * Every request must still answer within its deadline, authentication included.
 */
let store: FrozenStore;

beforeAll(async () => {
  store = await frozenStore();
  vi.stubEnv('TABLE_NAME', 'unit-store-frozen');
  vi.stubEnv('DYNAMODB_ENDPOINT', store.endpoint);
  vi.stubEnv('STAGE', 'local');
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await store.close();
});

const { requestTimeoutMs, bulkRequestTimeoutMs, maxAttempts } = config.dynamodb;
const SLACK_MS = 1500;

// Side by side, both suites too: each test only waits out its own time-outs (the frozen store answers
// no one), so the waits overlap instead of adding up; every bound is measured from the test's own start.
describe.concurrent('a frozen store, at the data layer', () => {
  it('one attempt gives up after the request time-out with a transient error', async () => {
    const client = createDocumentClient({ endpoint: store.endpoint, maxAttempts: 1 });
    const started = Date.now();
    const err = await client.send(new GetCommand({ TableName: 't', Key: { pk: 'a', sk: 'b' } })).catch((e: unknown) => e);
    const took = Date.now() - started;
    expect(isTransientDependencyError(err)).toBe(true);
    expect(took).toBeGreaterThanOrEqual(requestTimeoutMs - 100);
    expect(took).toBeLessThan(requestTimeoutMs + SLACK_MS);
  });

  it('a transaction that was sent and never answered is OUTCOME_UNKNOWN, not SERVICE_UNAVAILABLE', async () => {
    const client = createDocumentClient({ endpoint: store.endpoint, maxAttempts: 1 });
    const started = Date.now();
    const err = await transactWrite([{ op: { Put: { Item: { pk: 'a', sk: 'b' } } } }], 4, { client, confirmAttempts: 2 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('OUTCOME_UNKNOWN');
    expect((err as AppError).status).toBe(503);
    expect((err as AppError).headers).toEqual({ 'retry-after': '1' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(2 * bulkRequestTimeoutMs - 200);
    expect(Date.now() - started).toBeLessThan(2 * bulkRequestTimeoutMs + SLACK_MS);
  }, 20_000);

  it('a single-item write that was sent and never answered is OUTCOME_UNKNOWN, not SERVICE_UNAVAILABLE', async () => {
    const client = createDocumentClient({ endpoint: store.endpoint, maxAttempts: 1 });
    const started = Date.now();
    // A put may be sent again (its re-send would recognise it); a counter may not: unknown after one attempt.
    const [put, counter] = await Promise.all([
      putItem({ Item: { pk: 'a', sk: 'b' }, ConditionExpression: 'attribute_not_exists(pk)' }, { client }).catch((e: unknown) => ({
        err: e,
        took: Date.now() - started,
      })),
      updateItem({ Key: { pk: 'a', sk: 'c' }, UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': 1 } }, { client }).catch((e: unknown) => ({
        err: e,
        took: Date.now() - started,
      })),
    ]);
    for (const { err } of [put, counter] as { err: unknown }[]) {
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe('OUTCOME_UNKNOWN');
      expect((err as AppError).headers).toEqual({ 'retry-after': '1' });
    }
    expect((put as { took: number }).took).toBeGreaterThanOrEqual(maxAttempts * requestTimeoutMs - 200);
    expect((put as { took: number }).took).toBeLessThan(maxAttempts * requestTimeoutMs + SLACK_MS);
    expect((counter as { took: number }).took).toBeLessThan(requestTimeoutMs + SLACK_MS);
  }, 20_000);

  it('table administration (local runtime start-up) is not cut at the per-attempt time-out', async () => {
    const client = createDocumentClient({ endpoint: store.endpoint, maxAttempts: 1 });
    const started = Date.now();
    const err = await client
      .send(
        new CreateTableCommand({
          TableName: 't',
          BillingMode: 'PAY_PER_REQUEST',
          AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
          KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
        }),
        { abortSignal: AbortSignal.timeout(bulkRequestTimeoutMs + 1000) },
      )
      .catch((e: unknown) => e);
    expect((err as Error).name).toBe('AbortError');
    expect(Date.now() - started).toBeGreaterThanOrEqual(bulkRequestTimeoutMs + 900);
  }, 20_000);
});

describe.concurrent('a frozen store, through the HTTP chain', () => {
  let handler: typeof import('../../../../../functions/members/handler')['handler'];
  beforeAll(async () => {
    // Fresh modules: the unit files share one module graph per worker, and the client and config
    // another file loaded would still point at its own store.
    vi.resetModules();
    ({ handler } = await import('../../../../../functions/members/handler'));
  });
  const call = async (getRemainingTimeInMillis?: () => number) => {
    const started = Date.now();
    const res = (await handler(httpEvent('GET', '/api/v2/members', { headers: { authorization: `Bearer ${SOME_API_KEY}` } }), {
      awsRequestId: 'unit',
      functionName: 'members',
      ...(getRemainingTimeInMillis ? { getRemainingTimeInMillis } : {}),
    } as never)) as HttpResult;
    return { res, took: Date.now() - started };
  };

  it('a request still authenticating answers 503 JSON within the request deadline', async () => {
    const { res, took } = await call();
    expect(res.statusCode).toBe(503);
    expect(res.headers!['retry-after']).toBe('1');
    expect(res.headers!['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(res.body!).error.code).toBe('SERVICE_UNAVAILABLE');
    // Bounded by the client's attempts, and in any case by the deadline.
    expect(took).toBeLessThan(Math.min(maxAttempts * requestTimeoutMs + SLACK_MS, config.http.requestDeadlineMs + 600));
  }, 20_000);

  it('the deadline aborts the store calls in flight when the Lambda time left is shorter', async () => {
    const deadline = Date.now() + 2500;
    // 2.5 s left in the Lambda: the request keeps 1 s for itself, so it must answer after ~1.5 s.
    const { res, took } = await call(() => deadline - Date.now());
    expect(res.statusCode).toBe(503);
    expect(JSON.parse(res.body!).error.code).toBe('SERVICE_UNAVAILABLE');
    expect(took).toBeLessThan(1500 + 600);
    expect(took).toBeGreaterThanOrEqual(1400);
  }, 20_000);

  it('the request deadline leaves the Lambda time to answer, and one store call gives up well before it', () => {
    expect(config.http.requestDeadlineMs).toBeLessThanOrEqual(config.lambda.timeoutSeconds * 1000 - 3000);
    expect(maxAttempts * requestTimeoutMs).toBeLessThan(config.http.requestDeadlineMs / 2);
    // Every confirming attempt of a transaction fits in the deadline.
    expect(config.dynamodb.transactionConfirmAttempts * bulkRequestTimeoutMs).toBeLessThanOrEqual(config.http.requestDeadlineMs - 1000);
  });
});
