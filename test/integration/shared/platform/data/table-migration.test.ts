import { CreateTableCommand, DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { TABLE_SCHEMA } from '../../../../../shared/platform/data/table-schema';
import { storesOfOwn } from '../../../../support/platform';

// A DynamoDB Local of this file: DynamoDB Local builds indexes behind the other work it is given,
// and on the run's shared one that took over a minute.
let own: Awaited<ReturnType<typeof storesOfOwn>>;
beforeAll(async () => {
  own = await storesOfOwn(inject('stores'));
}, 120_000);
afterAll(async () => own?.stop());

describe('a data directory from an older version', () => {
  it('gets the indexes added since, when the runtime starts on it', async () => {
    const endpoint = own.stores.dynamodbEndpoint;
    const TableName = `migration-${Date.now()}`;
    const client = new DynamoDBClient({
      endpoint,
      region: 'eu-west-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    // The table as the first version created it: only gsi1.
    await client.send(
      new CreateTableCommand({
        TableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: ['pk', 'sk', 'gsi1pk', 'gsi1sk'].map((AttributeName) => ({ AttributeName, AttributeType: 'S' })),
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: [
          {
            IndexName: 'gsi1',
            KeySchema: [
              { AttributeName: 'gsi1pk', KeyType: 'HASH' },
              { AttributeName: 'gsi1sk', KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          },
        ],
      }),
    );
    Object.assign(process.env, { TABLE_NAME: TableName, DYNAMODB_ENDPOINT: endpoint, STAGE: 'local' });
    const { ensureTable } = await import('../../../../../infra/local/table-admin');
    expect(await ensureTable()).toBe(false);
    const { Table } = await client.send(new DescribeTableCommand({ TableName }));
    expect((Table!.GlobalSecondaryIndexes ?? []).map((g) => [g.IndexName, g.IndexStatus]).sort()).toEqual(
      TABLE_SCHEMA.gsis.map((g) => [g.indexName, 'ACTIVE']),
    );
  });
});
