import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { config } from '../../../../../shared/platform/config';
import { createDocumentClient } from '../../../../../shared/platform/data/client';
import { isTransientDependencyError } from '../../../../../shared/platform/data/errors';
import { deleteItem, isConditionFailed, putItem, updateItem } from '../../../../../shared/platform/data/items';
import { AppError } from '../../../../../shared/platform/errors';
import { newId } from '../../../../../shared/platform/ids';
import { lossyProxy, type LossyProxy } from '../../../../support/lossy-proxy';
import { runtimeOf, type RuntimeInfo } from '../../../../support/platform';
import { platformTable } from '../../../../support/table';

/**
 * A 503 means "not applied", for single-item writes too (PutItem, UpdateItem, DeleteItem have no
 * request token). Against the platform's DynamoDB Local behind a proxy that swallows the answers of
 * one operation: the write is applied, the client times out. The wrapper either recognises its own
 * write when it sends it again, or answers OUTCOME_UNKNOWN; never SERVICE_UNAVAILABLE, never a 409
 * or 404 caused by its own earlier attempt, never applied twice.
 */

const PUT = 'DynamoDB_20120810.PutItem';
const UPDATE = 'DynamoDB_20120810.UpdateItem';
const DELETE = 'DynamoDB_20120810.DeleteItem';

let runtime: RuntimeInfo;
const proxies: LossyProxy[] = [];

beforeAll(async () => {
  runtime = await runtimeOf(inject('dataDir'));
  process.env.TABLE_NAME = runtime.tableName;
  process.env.DYNAMODB_ENDPOINT = runtime.dynamodbEndpoint;
  process.env.STAGE = 'local';
});
// The tests run side by side (each waits out its client's time-outs on a proxy of its own): the
// proxies close when the file ends, not when a test does, which would cut the others' proxies.
afterAll(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close()));
});

async function proxyFor(target: string, opts: { swallow: number; refuseAfterSwallow?: boolean }) {
  const proxy = await lossyProxy(new URL(runtime.dynamodbEndpoint), { ...opts, target });
  proxies.push(proxy);
  return { proxy, client: createDocumentClient({ endpoint: proxy.endpoint, maxAttempts: 1 }) };
}

const itemKey = () => ({ pk: `TEST#${newId('wrt')}`, sk: 'ITEM' });

async function stored(key: { pk: string; sk: string }) {
  const { doc, tableName } = await platformTable();
  return (await doc.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }))).Item;
}

async function seed(item: Record<string, unknown>) {
  const { doc, tableName } = await platformTable();
  await doc.send(new PutCommand({ TableName: tableName, Item: item }));
}

const codeOf = (err: unknown) => (err instanceof AppError ? err.code : undefined);

describe.concurrent('a single-item write whose answer is lost', () => {
  it('a conditional put (create) is sent again and recognised as its own: success, stored once', async () => {
    const { proxy, client } = await proxyFor(PUT, { swallow: 1 });
    const key = itemKey();
    const item = { ...key, name: 'first', n: 1.5, tags: ['a', 'b'], nested: { x: 1, gone: undefined } };
    await putItem({ Item: item, ConditionExpression: 'attribute_not_exists(pk)' }, { client });
    expect(proxy.swallowed).toBe(1);
    expect(proxy.requests).toBe(2);
    expect(await stored(key)).toEqual({ ...key, name: 'first', n: 1.5, tags: ['a', 'b'], nested: { x: 1 } });
  }, 30_000);

  it('an unconditional put is sent again as it is: success', async () => {
    const { proxy, client } = await proxyFor(PUT, { swallow: 1 });
    const key = itemKey();
    await putItem({ Item: { ...key, name: 'again' } }, { client });
    expect(proxy.requests).toBe(2);
    expect(await stored(key)).toEqual({ ...key, name: 'again' });
  }, 30_000);

  it('a conditional put whose re-send finds another item is OUTCOME_UNKNOWN, not the 409 of a failed condition', async () => {
    const { client } = await proxyFor(PUT, { swallow: 1 });
    const key = itemKey();
    await seed({ ...key, name: 'theirs', version: 2 });
    // Its condition fails on the first attempt too, but that answer is lost: it cannot tell.
    const err = await putItem(
      { Item: { ...key, name: 'mine', version: 2 }, ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': 1 } },
      { client },
    ).catch((e: unknown) => e);
    expect(codeOf(err)).toBe('OUTCOME_UNKNOWN');
    expect(await stored(key)).toEqual({ ...key, name: 'theirs', version: 2 });
  }, 30_000);

  it('a failed condition answered at once is still the store’s definite answer', async () => {
    const { proxy, client } = await proxyFor(PUT, { swallow: 0 });
    const key = itemKey();
    await seed({ ...key, name: 'theirs' });
    const err = await putItem({ Item: { ...key, name: 'mine' }, ConditionExpression: 'attribute_not_exists(pk)' }, { client }).catch((e: unknown) => e);
    expect(isConditionFailed(err)).toBe(true);
    expect(proxy.requests).toBe(1);
  }, 30_000);

  it('a put no attempt of which is answered is OUTCOME_UNKNOWN (and applied once)', async () => {
    const { proxy, client } = await proxyFor(PUT, { swallow: Infinity });
    const key = itemKey();
    const err = await putItem({ Item: { ...key, name: 'lost' }, ConditionExpression: 'attribute_not_exists(pk)' }, { client }).catch((e: unknown) => e);
    expect(codeOf(err)).toBe('OUTCOME_UNKNOWN');
    expect((err as AppError).status).toBe(503);
    expect(proxy.requests).toBe(config.dynamodb.maxAttempts);
    expect(await stored(key)).toEqual({ ...key, name: 'lost' });
  }, 30_000);

  it('a put whose store then refuses connections is OUTCOME_UNKNOWN, not SERVICE_UNAVAILABLE', async () => {
    const { client } = await proxyFor(PUT, { swallow: 1, refuseAfterSwallow: true });
    const key = itemKey();
    const err = await putItem({ Item: { ...key, name: 'lost' } }, { client }).catch((e: unknown) => e);
    expect(codeOf(err)).toBe('OUTCOME_UNKNOWN');
    expect(await stored(key)).toEqual({ ...key, name: 'lost' });
  }, 30_000);

  it('a store refusing connections from the start is SERVICE_UNAVAILABLE (nothing applied)', async () => {
    const { proxy, client } = await proxyFor(PUT, { swallow: 0 });
    await proxy.close();
    const key = itemKey();
    const err = await putItem({ Item: { ...key, name: 'never' } }, { client }).catch((e: unknown) => e);
    expect(err).not.toBeInstanceOf(AppError);
    expect(isTransientDependencyError(err)).toBe(true);
    expect(await stored(key)).toBeUndefined();
  }, 30_000);

  it('a conditional delete is sent again and finds the item gone: success, not 404', async () => {
    const { proxy, client } = await proxyFor(DELETE, { swallow: 1 });
    const key = itemKey();
    await seed({ ...key, name: 'doomed' });
    await deleteItem({ Key: key, ConditionExpression: 'attribute_exists(pk)' }, { client });
    expect(proxy.requests).toBe(2);
    expect(await stored(key)).toBeUndefined();
  }, 30_000);

  it('an update that may not be sent again (a counter) is OUTCOME_UNKNOWN at once, applied once', async () => {
    const { proxy, client } = await proxyFor(UPDATE, { swallow: 1 });
    const key = itemKey();
    const err = await updateItem({ Key: key, UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': 1 } }, { client }).catch((e: unknown) => e);
    expect(codeOf(err)).toBe('OUTCOME_UNKNOWN');
    expect(proxy.requests).toBe(1);
    expect((await stored(key))?.n).toBe(1);
  }, 30_000);

  it('an update whose condition fails once applied is sent again and recognised: success, applied once', async () => {
    const { proxy, client } = await proxyFor(UPDATE, { swallow: 1 });
    const key = itemKey();
    await seed({ ...key, n: 0 });
    const out = await updateItem<{ n?: number; by?: string }>(
      {
        Key: key,
        UpdateExpression: 'SET n = n + :one, #by = :me',
        ConditionExpression: 'n = :seen',
        ExpressionAttributeNames: { '#by': 'by' },
        ExpressionAttributeValues: { ':one': 1, ':me': 'me', ':seen': 0 },
      },
      { client, appliedIn: (item) => item?.by === 'me' },
    );
    expect(out).toMatchObject({ n: 1, by: 'me' });
    expect(proxy.requests).toBe(2);
    expect((await stored(key))?.n).toBe(1);
  }, 30_000);
});
