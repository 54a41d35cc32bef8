import { DescribeTableCommand, DescribeTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { TABLE_SCHEMA } from '../../../../../shared/platform/data/table-schema';
import { platformTable } from '../../../../support/table';

describe('the local table is the table CDK declares', () => {
  it('has pk/sk, the generic GSIs, a NEW_AND_OLD_IMAGES stream and TTL on expiresAt', async () => {
    const { doc: client, runtime } = await platformTable();
    const { Table } = await client.send(new DescribeTableCommand({ TableName: runtime.tableName }));
    expect(Table!.KeySchema).toEqual([
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ]);
    expect(Table!.GlobalSecondaryIndexes!.map((g) => [g.IndexName, g.KeySchema!.map((k) => k.AttributeName)]).sort()).toEqual(
      TABLE_SCHEMA.gsis.map((g) => [g.indexName, [g.partitionKey, g.sortKey]]),
    );
    expect(Table!.StreamSpecification).toMatchObject({ StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' });
    const ttl = await client.send(new DescribeTimeToLiveCommand({ TableName: runtime.tableName }));
    expect(ttl.TimeToLiveDescription).toMatchObject({ AttributeName: 'expiresAt', TimeToLiveStatus: 'ENABLED' });
  });
});
