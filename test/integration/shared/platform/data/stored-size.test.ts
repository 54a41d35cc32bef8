import { randomBytes } from 'node:crypto';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it, inject } from 'vitest';
import { config } from '../../../../../shared/platform/config';
import { keyOf } from '../../../../../shared/platform/data/keys';
import * as idem from '../../../../../shared/platform/data/idempotency-records';
import { putItem, updateItem } from '../../../../../shared/platform/data/items';
import { transactWrite } from '../../../../../shared/platform/data/transactions';
import { AppError } from '../../../../../shared/platform/errors';
import { newId } from '../../../../../shared/platform/ids';
import { runtimeOf } from '../../../../support/platform';
import { platformTable } from '../../../../support/table';

/**
 * Against the platform's DynamoDB Local: a write the store refuses for its size is a 422 naming
 * the body (nothing applied), never an internal error; and an idempotent answer of any size is kept
 * (compressed, in parts when it must be) and read back exactly.
 */

beforeAll(async () => {
  const runtime = await runtimeOf(inject('dataDir'));
  process.env.TABLE_NAME = runtime.tableName;
  process.env.DYNAMODB_ENDPOINT = runtime.dynamodbEndpoint;
  process.env.STAGE = 'local';
});

const itemKey = () => ({ pk: `TEST#${newId('siz')}`, sk: 'ITEM' });
const OVER = 'x'.repeat(410 * 1024);

async function stored(key: { pk: string; sk: string }) {
  const { doc, tableName } = await platformTable();
  return (await doc.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }))).Item;
}

async function refusal(write: Promise<unknown>): Promise<AppError> {
  const err = await write.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

const TOO_LARGE = [{ in: 'body', field: 'body', message: 'too large to store: an item would exceed the store limit of 400 KB; send less' }];

describe('a write the store refuses for its size', () => {
  it('a put: 422 VALIDATION_FAILED naming the body, nothing stored', async () => {
    const key = itemKey();
    const err = await refusal(putItem({ Item: { ...key, big: OVER } }));
    expect([err.status, err.code, err.details]).toEqual([422, 'VALIDATION_FAILED', TOO_LARGE]);
    expect(await stored(key)).toBeUndefined();
  });

  it('an update that grows the item past the limit: the same, the item as it was', async () => {
    const key = itemKey();
    await putItem({ Item: { ...key, big: 'small' } });
    const err = await refusal(updateItem({ Key: key, UpdateExpression: 'SET big = :b', ExpressionAttributeValues: { ':b': OVER } }));
    expect([err.status, err.details]).toEqual([422, TOO_LARGE]);
    expect((await stored(key))?.big).toBe('small');
  });

  it('a transaction with one oversized item: the same, none of its items stored', async () => {
    const [small, large] = [itemKey(), itemKey()];
    const err = await refusal(transactWrite([{ op: { Put: { Item: { ...small, v: 1 } } } }, { op: { Put: { Item: { ...large, big: OVER } } } }]));
    expect([err.status, err.details]).toEqual([422, TOO_LARGE]);
    expect(await stored(small)).toBeUndefined();
    expect(await stored(large)).toBeUndefined();
  });
});

describe('idempotent answers of any size', () => {
  const now = () => Math.floor(Date.now() / 1000);
  const ws = () => newId('wsp');

  async function partitionOf(workspaceId: string, key: string) {
    const { doc, tableName } = await platformTable();
    const { pk } = keyOf('idempotency', { workspaceId, key });
    const out = await doc.send(
      new QueryCommand({ TableName: tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk }, ConsistentRead: true }),
    );
    return out.Items ?? [];
  }

  it('keeps an answer compressed in one binary attribute, far smaller than its escaped text', async () => {
    const workspaceId = ws();
    // Control characters: six bytes each once escaped as JSON text, one here.
    const result = JSON.stringify({ id: 'cmp_1', values: Array.from({ length: 3000 }, (_, i) => `\u0001\u0002${'\u0003'.repeat(100)}${i}`) });
    expect(Buffer.byteLength(JSON.stringify(result))).toBeGreaterThan(400 * 1024);
    let committed = false;
    await transactWrite(idem.recordStep(workspaceId, 'k', { requestHash: 'h', result, expiresAt: now() + 60 }, now(), () => (committed = true)));
    expect(committed).toBe(true);
    const items = await partitionOf(workspaceId, 'k');
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ answerKind: 'result', requestHash: 'h' });
    expect(items[0]!.answer).toBeInstanceOf(Uint8Array);
    expect(items[0]!.answer.byteLength).toBeLessThan(result.length / 10);
    expect(items[0]).not.toHaveProperty('result');
    expect(await idem.getRecord(workspaceId, 'k', now())).toEqual({ requestHash: 'h', result, expiresAt: items[0]!.expiresAt });
  });

  it('cuts an answer that stays too large into parts written with its record, and reads them back whole', async () => {
    const workspaceId = ws();
    // Random bytes do not compress: 1.2 MB of answer in parts of at most the declared size.
    const body = randomBytes(900 * 1024).toString('base64');
    await idem.record(workspaceId, 'big', { requestHash: 'h', response: { statusCode: 200, body }, expiresAt: now() + 60 }, now());
    const items = await partitionOf(workspaceId, 'big');
    const parts = Math.ceil(items.reduce((n, i) => n + (i.answer ?? i.bytes).byteLength, 0) / config.storage.idempotencyPartBytes);
    expect(parts).toBeGreaterThan(1);
    expect(items).toHaveLength(parts);
    for (const i of items) expect((i.answer ?? i.bytes).byteLength).toBeLessThanOrEqual(config.storage.idempotencyPartBytes);
    expect(items.find((i) => i.sk === 'IDEM')).toMatchObject({ answerKind: 'response', statusCode: 200, answerParts: parts });
    expect(await idem.getRecord(workspaceId, 'big', now())).toMatchObject({ requestHash: 'h', response: { statusCode: 200, body } });

    // The first answer stays: a second recording of the key changes nothing.
    await idem.record(workspaceId, 'big', { requestHash: 'h', response: { statusCode: 200, body: 'other' }, expiresAt: now() + 60 }, now());
    expect((await idem.getRecord(workspaceId, 'big', now()))?.response?.body).toBe(body);
  });

  it('a claim refused by a recorded answer in parts returns that answer whole', async () => {
    const workspaceId = ws();
    const result = JSON.stringify({ blob: randomBytes(500 * 1024).toString('base64') });
    await transactWrite(idem.recordStep(workspaceId, 'k', { requestHash: 'h', result, expiresAt: now() + 60 }, now(), () => {}));
    const outcome = await idem.claim(workspaceId, 'k', 'h', 'req-2', now(), 15);
    expect(outcome).toMatchObject({ claimed: false, current: { requestHash: 'h', result } });
  });

  it('still reads a record stored before answers were compressed', async () => {
    const workspaceId = ws();
    await putItem({
      Item: { ...keyOf('idempotency', { workspaceId, key: 'old' }), entity: 'idempotency', requestHash: 'h', result: '{"a":1}', expiresAt: now() + 60 },
    });
    expect(await idem.getRecord(workspaceId, 'old', now())).toEqual({ requestHash: 'h', result: '{"a":1}', expiresAt: expect.any(Number) });
  });
});
