import {
  CreateTableCommand,
  DescribeTableCommand,
  ResourceNotFoundException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { documentClient, tableName } from '../../shared/platform/data/client';
import { TABLE_SCHEMA } from '../../shared/platform/data/table-schema';

const keySchema = (g: (typeof TABLE_SCHEMA.gsis)[number]) => [
  { AttributeName: g.partitionKey, KeyType: 'HASH' as const },
  { AttributeName: g.sortKey, KeyType: 'RANGE' as const },
];

/** Index creation on a busy machine can take long; past this, start-up fails with a clear error. */
const INDEX_WAIT_MS = 300_000;

/** Waits until no index of the table is being created (DynamoDB builds one at a time). */
async function untilIndexesActive(TableName: string): Promise<void> {
  const giveUpAt = Date.now() + INDEX_WAIT_MS;
  for (;;) {
    const { Table } = await documentClient().send(new DescribeTableCommand({ TableName }));
    if ((Table?.GlobalSecondaryIndexes ?? []).every((x) => x.IndexStatus === 'ACTIVE')) return;
    if (Date.now() > giveUpAt) throw new Error(`The indexes of table ${TableName} did not become active within ${INDEX_WAIT_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A data directory made by an older version lacks the indexes added since: create them, one at a
 * time as DynamoDB requires, the way a CloudFormation update would.
 */
async function addMissingIndexes(TableName: string, existing: Set<string>): Promise<void> {
  const client = documentClient();
  for (const g of TABLE_SCHEMA.gsis.filter((x) => !existing.has(x.indexName))) {
    await untilIndexesActive(TableName);
    await client.send(
      new UpdateTableCommand({
        TableName,
        AttributeDefinitions: [g.partitionKey, g.sortKey].map((AttributeName) => ({ AttributeName, AttributeType: 'S' as const })),
        GlobalSecondaryIndexUpdates: [{ Create: { IndexName: g.indexName, KeySchema: keySchema(g), Projection: { ProjectionType: 'ALL' } } }],
      }),
    );
  }
  await untilIndexesActive(TableName);
}

/**
 * Creates the single table the way CDK declares it, if it does not exist yet (local runtime only;
 * in AWS CloudFormation owns the table). Returns true when it was created just now.
 */
export async function ensureTable(): Promise<boolean> {
  const client = documentClient();
  const TableName = tableName();
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName }));
    await addMissingIndexes(TableName, new Set((Table?.GlobalSecondaryIndexes ?? []).map((g) => g.IndexName!)));
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
        KeySchema: keySchema(g),
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
