import {
  CreateTableCommand,
  DescribeTableCommand,
  ResourceNotFoundException,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { documentClient, tableName } from './client';
import { TABLE_SCHEMA } from './table-schema';

/**
 * Creates the single table the way CDK declares it, if it does not exist yet (local runtime only;
 * in AWS CloudFormation owns the table). Returns true when it was created just now.
 */
export async function ensureTable(): Promise<boolean> {
  const client = documentClient();
  const TableName = tableName();
  try {
    await client.send(new DescribeTableCommand({ TableName }));
    return false;
  } catch (err) {
    if (!(err instanceof ResourceNotFoundException)) throw err;
  }
  const attrs = new Set<string>([TABLE_SCHEMA.partitionKey, TABLE_SCHEMA.sortKey]);
  for (const g of TABLE_SCHEMA.gsis) attrs.add(g.partitionKey).add(g.sortKey);
  await client.send(
    new CreateTableCommand({
      TableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [...attrs].map((AttributeName) => ({ AttributeName, AttributeType: 'S' })),
      KeySchema: [
        { AttributeName: TABLE_SCHEMA.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE_SCHEMA.sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: TABLE_SCHEMA.gsis.map((g) => ({
        IndexName: g.indexName,
        KeySchema: [
          { AttributeName: g.partitionKey, KeyType: 'HASH' },
          { AttributeName: g.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
      StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
    }),
  );
  await waitUntilTableExists({ client, maxWaitTime: 30 }, { TableName });
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName,
      TimeToLiveSpecification: { AttributeName: TABLE_SCHEMA.ttlAttribute, Enabled: true },
    }),
  );
  return true;
}
