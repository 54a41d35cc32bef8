import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDocumentClient } from '../../../../../shared/platform/data/client';
import { isTransientDependencyError, provesNotApplied } from '../../../../../shared/platform/data/errors';
import { putItem, updateItem } from '../../../../../shared/platform/data/items';
import { transactWrite } from '../../../../../shared/platform/data/transactions';
import { AppError } from '../../../../../shared/platform/errors';
import type { HttpResult } from '../../../../../shared/http/types';
import { closedPort, httpEvent, SOME_API_KEY } from '../../../../support/faulty-store';

/**
 * DynamoDB down (its process killed): every store call meets a closed port. That is "unavailable,
 * nothing applied", a 503 SERVICE_UNAVAILABLE with Retry-After, never a 500.
 */
let endpoint: string;

beforeAll(async () => {
  endpoint = `http://127.0.0.1:${await closedPort()}`;
  // The process's own client (what the handlers use) points at the closed port too.
  vi.stubEnv('TABLE_NAME', 'unit-store-down');
  vi.stubEnv('DYNAMODB_ENDPOINT', endpoint);
  vi.stubEnv('STAGE', 'local');
});

afterAll(() => {
  vi.unstubAllEnvs();
});

describe('a store that refuses connections, at the data layer', () => {
  it('is a transient error that proves nothing was applied', async () => {
    const client = createDocumentClient({ endpoint, maxAttempts: 1 });
    const err = await client.send(new GetCommand({ TableName: 't', Key: { pk: 'a', sk: 'b' } })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(isTransientDependencyError(err)).toBe(true);
    expect(provesNotApplied(err)).toBe(true);
  });

  it('a transaction fails as unavailable, not as an unknown outcome', async () => {
    const client = createDocumentClient({ endpoint, maxAttempts: 1 });
    const err = await transactWrite([{ op: { Put: { Item: { pk: 'a', sk: 'b' } } } }], 4, { client }).catch((e: unknown) => e);
    expect(err).not.toBeInstanceOf(AppError);
    expect(isTransientDependencyError(err)).toBe(true);
  });
});

describe('a store that refuses connections, single-item writes', () => {
  it('a put or an update fails as unavailable, not as an unknown outcome (nothing was sent)', async () => {
    const client = createDocumentClient({ endpoint, maxAttempts: 1 });
    const errors = await Promise.all([
      putItem({ Item: { pk: 'a', sk: 'b' }, ConditionExpression: 'attribute_not_exists(pk)' }, { client }).catch((e: unknown) => e),
      updateItem({ Key: { pk: 'a', sk: 'b' }, UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': 1 } }, { client }).catch((e: unknown) => e),
    ]);
    for (const err of errors) {
      expect(err).not.toBeInstanceOf(AppError);
      expect(isTransientDependencyError(err)).toBe(true);
      expect(provesNotApplied(err)).toBe(true);
    }
  });
});

describe('classification', () => {
  const named = (name: string, extra: Record<string, unknown> = {}) => Object.assign(new Error(name), { name, ...extra });
  it.each([
    ['connection refused', named('Error', { code: 'ECONNREFUSED' })],
    ['connection reset', named('Error', { code: 'ECONNRESET' })],
    ['DNS failure', named('Error', { code: 'ENOTFOUND' })],
    ['DNS try again', named('Error', { code: 'EAI_AGAIN' })],
    ['socket time-out', named('Error', { code: 'ETIMEDOUT' })],
    ['SDK time-out', named('TimeoutError')],
    ['request time-out', named('RequestTimeout')],
    ['abort', named('AbortError')],
    ['throttling', named('ThrottlingException')],
    ['throughput', named('ProvisionedThroughputExceededException')],
    ['a 5xx of the service', named('SomethingNew', { $metadata: { httpStatusCode: 502 } })],
    ['refused behind an AggregateError', new AggregateError([named('Error', { code: 'ECONNREFUSED' })], 'connect failed')],
    ['refused as the cause', new Error('wrapped', { cause: named('Error', { code: 'ECONNREFUSED' }) })],
  ])('%s is transient', (_what, err) => {
    expect(isTransientDependencyError(err)).toBe(true);
  });

  it.each([
    ['a validation error', named('ValidationException', { $metadata: { httpStatusCode: 400 } })],
    ['a failed condition', named('ConditionalCheckFailedException', { $metadata: { httpStatusCode: 400 } })],
    ['a plain bug', new TypeError('x is undefined')],
  ])('%s is not transient', (_what, err) => {
    expect(isTransientDependencyError(err)).toBe(false);
  });

  it('only refusals before sending prove a write was not applied', () => {
    expect(provesNotApplied(named('Error', { code: 'ECONNREFUSED' }))).toBe(true);
    expect(provesNotApplied(named('ThrottlingException'))).toBe(true);
    expect(provesNotApplied(named('TimeoutError'))).toBe(false);
    expect(provesNotApplied(named('Error', { code: 'ECONNRESET' }))).toBe(false);
    expect(provesNotApplied(named('InternalServerError', { $metadata: { httpStatusCode: 500 } }))).toBe(false);
  });
});

describe('a store that refuses connections, through the HTTP chain', () => {
  it('an authenticated request answers 503 SERVICE_UNAVAILABLE with Retry-After, not 500', async () => {
    // Fresh modules: where files share one module graph (the mutation runs), the client and config
    // another file loaded would still point at its own store.
    vi.resetModules();
    const { handler } = await import('../../../../../functions/members/handler');
    const res = (await handler(httpEvent('GET', '/api/v2/members', { headers: { authorization: `Bearer ${SOME_API_KEY}` } }), {
      awsRequestId: 'unit',
      functionName: 'members',
    } as never)) as HttpResult;
    expect(res.statusCode).toBe(503);
    expect(res.headers!['retry-after']).toBe('1');
    const body = JSON.parse(res.body!);
    expect(body.error.code).toBe('SERVICE_UNAVAILABLE');
    expect(res.headers!['x-request-id']).toBe(body.error.requestId);
  });
});
