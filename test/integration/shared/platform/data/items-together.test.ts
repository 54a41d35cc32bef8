import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { afterEach, beforeAll, describe, expect, it, inject, vi } from 'vitest';
import { documentClient } from '../../../../../shared/platform/data/client';
import { getItemsTogether, putItem } from '../../../../../shared/platform/data/items';
import { newId } from '../../../../../shared/platform/ids';
import { runtimeOf } from '../../../../support/platform';

/** Items read as of one moment (an order's member and tier record), against the platform's DynamoDB Local. */

beforeAll(async () => {
  const runtime = await runtimeOf(inject('dataDir'));
  process.env.TABLE_NAME = runtime.tableName;
  process.env.DYNAMODB_ENDPOINT = runtime.dynamodbEndpoint;
  process.env.STAGE = 'local';
});
afterEach(() => vi.restoreAllMocks());

const keys = (pk: string) => [
  { pk, sk: 'A' },
  { pk, sk: 'MISSING' },
  { pk, sk: 'B' },
];

describe('getItemsTogether', () => {
  it('answers the items in the order of the keys, undefined for a missing one, in one request', async () => {
    const pk = `TOGETHER#${newId('tst')}`;
    await putItem({ Item: { pk, sk: 'A', n: 1 } });
    await putItem({ Item: { pk, sk: 'B', n: 2 } });
    const send = vi.spyOn(documentClient(), 'send');
    expect(await getItemsTogether(keys(pk))).toEqual([{ pk, sk: 'A', n: 1 }, undefined, { pk, sk: 'B', n: 2 }]);
    expect(send.mock.calls.map(([c]) => c.constructor.name)).toEqual(['TransactGetCommand']);
  });

  // DynamoDB Local runs transactions one at a time, so it never cancels a read for a transaction in
  // flight (TransactionConflict): that answer is the one thing played here, at the client.
  it('reads them one after another, in the order given, when a transaction in flight cancels the read', async () => {
    const pk = `TOGETHER#${newId('tst')}`;
    await putItem({ Item: { pk, sk: 'A', n: 1 } });
    await putItem({ Item: { pk, sk: 'B', n: 2 } });
    const client = documentClient();
    const real = client.send.bind(client);
    const sent: string[] = [];
    vi.spyOn(client, 'send').mockImplementation((async (command: { constructor: { name: string }; input: { Key?: { sk: string } } }) => {
      sent.push(`${command.constructor.name}${command.input.Key ? ` ${command.input.Key.sk}` : ''}`);
      if (command.constructor.name === 'TransactGetCommand') {
        throw new TransactionCanceledException({
          message: 'Transaction cancelled',
          $metadata: {},
          CancellationReasons: [{ Code: 'TransactionConflict' }, { Code: 'None' }, { Code: 'None' }],
        });
      }
      return real(command as never);
    }) as never);
    expect(await getItemsTogether(keys(pk))).toEqual([{ pk, sk: 'A', n: 1 }, undefined, { pk, sk: 'B', n: 2 }]);
    expect(sent).toEqual(['TransactGetCommand', 'GetCommand A', 'GetCommand MISSING', 'GetCommand B']);
  });
});
