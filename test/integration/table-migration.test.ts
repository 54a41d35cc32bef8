import { CreateTableCommand, DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { TABLE_SCHEMA } from '../../shared/data/table-schema';
import { runtimeOf } from '../support/platform';

describe('a data directory from an older version', () => {
  it('gets the indexes added since, when the runtime starts on it', async () => {
    const runtime = await runtimeOf(inject('dataDir'));
    const TableName = `migration-${Date.now()}`;
    const client = new DynamoDBClient({
      endpoint: runtime.dynamodbEndpoint,
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
    Object.assign(process.env, { TABLE_NAME: TableName, DYNAMODB_ENDPOINT: runtime.dynamodbEndpoint, STAGE: 'local' });
    const { ensureTable } = await import('../../infra/local/table-admin');
    expect(await ensureTable()).toBe(false);
    const { Table } = await client.send(new DescribeTableCommand({ TableName }));
    expect((Table!.GlobalSecondaryIndexes ?? []).map((g) => [g.IndexName, g.IndexStatus]).sort()).toEqual(
      TABLE_SCHEMA.gsis.map((g) => [g.indexName, 'ACTIVE']),
    );
  });
});
