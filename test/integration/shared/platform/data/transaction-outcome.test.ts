import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { config } from '../../../../../shared/platform/config';
import { createDocumentClient } from '../../../../../shared/platform/data/client';
import { isTransientDependencyError } from '../../../../../shared/platform/data/errors';
import { transactWrite, type TransactStep } from '../../../../../shared/platform/data/transactions';
import { AppError } from '../../../../../shared/platform/errors';
import { newId } from '../../../../../shared/platform/ids';
import { lossyProxy, type LossyProxy } from '../../../../support/lossy-proxy';
import { runtimeOf, type RuntimeInfo } from '../../../../support/platform';
import { platformTable } from '../../../../support/table';

/**
 * A 503 means "not applied". The transaction wrapper against the platform's DynamoDB Local behind a
 * TCP proxy that forwards a TransactWriteItems and swallows its answer: the write commits, the
 * client times out. The wrapper must learn the outcome with the same ClientRequestToken.
 */

let runtime: RuntimeInfo;
const proxies: LossyProxy[] = [];

beforeAll(async () => {
  runtime = await runtimeOf(inject('dataDir'));
  // Read lazily by the modules under test (runtimeConfig parses on first use).
  process.env.TABLE_NAME = runtime.tableName;
  process.env.DYNAMODB_ENDPOINT = runtime.dynamodbEndpoint;
  process.env.STAGE = 'local';
});
// The tests run side by side (each waits out its client's time-outs on a proxy of its own): the
// proxies close when the file ends, not when a test does, which would cut the others' proxies.
afterAll(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close()));
});

async function proxyFor(opts: { swallow: number; refuseAfterSwallow?: boolean; target?: string; dieAfterAnswer?: boolean }) {
  const proxy = await lossyProxy(new URL(runtime.dynamodbEndpoint), opts);
  proxies.push(proxy);
  return { proxy, client: createDocumentClient({ endpoint: proxy.endpoint, maxAttempts: 1 }) };
}

const counterKey = () => ({ pk: `TEST#${newId('txn')}`, sk: 'COUNTER' });

/** Adds one to a counter and creates a marker item that must not exist yet (a conditional write). */
function steps(key: { pk: string; sk: string }, committed: { count: number }): TransactStep[] {
  return [
    {
      op: { Update: { Key: key, UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': 1 } } },
      onCommitted: () => committed.count++,
    },
    {
      op: { Put: { Item: { pk: key.pk, sk: 'MARKER' }, ConditionExpression: 'attribute_not_exists(pk)' } },
      onConditionFailed: () => new AppError('CONFLICT', 'marker exists'),
    },
  ];
}

async function counterOf(key: { pk: string; sk: string }): Promise<number | undefined> {
  const { doc, tableName } = await platformTable();
  const out = await doc.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }));
  return out.Item?.n as number | undefined;
}

describe.concurrent('a transaction whose answer is lost', () => {
  it('is confirmed with the same request token and reported once, applied once', async () => {
    const { proxy, client } = await proxyFor({ swallow: 1 });
    const key = counterKey();
    const committed = { count: 0 };
    await transactWrite(steps(key, committed), 4, { client });
    expect(proxy.swallowed).toBe(1);
    expect(proxy.requests).toBe(2);
    expect(committed.count).toBe(1);
    // Applied once: a second application would make n = 2, and its condition would have failed (409).
    expect(await counterOf(key)).toBe(1);
  }, 30_000);

  it('is OUTCOME_UNKNOWN when no attempt is answered (and still applied at most once)', async () => {
    const { proxy, client } = await proxyFor({ swallow: Infinity });
    const key = counterKey();
    const committed = { count: 0 };
    const err = await transactWrite(steps(key, committed), 4, { client }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('OUTCOME_UNKNOWN');
    expect((err as AppError).headers).toEqual({ 'retry-after': '1' });
    expect(proxy.requests).toBe(config.dynamodb.transactionConfirmAttempts);
    expect(committed.count).toBe(0);
    expect(await counterOf(key)).toBe(1);
  }, 30_000);

  it('is OUTCOME_UNKNOWN, not SERVICE_UNAVAILABLE, when the store then becomes unreachable', async () => {
    const { proxy, client } = await proxyFor({ swallow: 1, refuseAfterSwallow: true });
    const key = counterKey();
    const err = await transactWrite(steps(key, { count: 0 }), 4, { client }).catch((e: unknown) => e);
    expect(proxy.swallowed).toBe(1);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('OUTCOME_UNKNOWN');
    expect(await counterOf(key)).toBe(1);
  }, 30_000);

  it('a store refusing connections from the start is SERVICE_UNAVAILABLE (nothing applied)', async () => {
    const { proxy, client } = await proxyFor({ swallow: 0 });
    await proxy.close();
    const key = counterKey();
    const err = await transactWrite(steps(key, { count: 0 }), 4, { client }).catch((e: unknown) => e);
    expect(err).not.toBeInstanceOf(AppError);
    expect(isTransientDependencyError(err)).toBe(true);
    expect(await counterOf(key)).toBeUndefined();
  }, 30_000);

  it('a failed condition is still the step own error, and a clean commit goes through the proxy once', async () => {
    const { proxy, client } = await proxyFor({ swallow: 0 });
    const key = counterKey();
    await transactWrite(steps(key, { count: 0 }), 4, { client });
    const err = await transactWrite(steps(key, { count: 0 }), 4, { client }).catch((e: unknown) => e);
    expect((err as AppError).code).toBe('CONFLICT');
    expect(proxy.requests).toBe(2);
    expect(await counterOf(key)).toBe(1);
  }, 30_000);
});

/**
 * DynamoDB Local answers a TransactWriteItems before its SQLite COMMIT has run (a JVM killed just
 * then loses the acknowledged transaction). The wrapper reads the first item back before it
 * resolves (DynamoDB Local runs its SQLite jobs in order, so the read waits for the commit); until
 * that read answers, the commit is in doubt.
 */
describe.concurrent('against DynamoDB Local, a transaction resolves only once committed', () => {
  const GET = 'DynamoDB_20120810.GetItem';

  it('a commit is followed by one read of its first item before it resolves', async () => {
    const { proxy, client } = await proxyFor({ swallow: 0, target: GET });
    const key = counterKey();
    await transactWrite(steps(key, { count: 0 }), 4, { client });
    expect(proxy.requests).toBe(1);
    expect(await counterOf(key)).toBe(1);
  }, 30_000);

  it('a commit whose read goes unanswered is confirmed again with the same token: success, applied once', async () => {
    const { proxy, client } = await proxyFor({ swallow: 1, target: GET });
    const key = counterKey();
    const committed = { count: 0 };
    await transactWrite(steps(key, committed), 4, { client });
    expect(proxy.swallowed).toBe(1);
    expect(proxy.requests).toBe(2);
    expect(committed.count).toBe(1);
    expect(await counterOf(key)).toBe(1);
  }, 30_000);

  it('a store that dies right after answering the commit is OUTCOME_UNKNOWN, not SERVICE_UNAVAILABLE', async () => {
    const { proxy, client } = await proxyFor({ swallow: 0, target: 'DynamoDB_20120810.TransactWriteItems', dieAfterAnswer: true });
    const key = counterKey();
    const err = await transactWrite(steps(key, { count: 0 }), 4, { client }).catch((e: unknown) => e);
    expect(proxy.requests).toBe(1);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('OUTCOME_UNKNOWN');
    expect(await counterOf(key)).toBe(1);
  }, 30_000);
});
