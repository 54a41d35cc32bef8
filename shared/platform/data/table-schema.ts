/**
 * Physical shape of the single table, as data. CDK builds the table from it and the local runtime
 * creates the same table in DynamoDB Local. Logical key layouts live in `keys.ts`.
 */
export const TABLE_SCHEMA = {
  partitionKey: 'pk',
  sortKey: 'sk',
  ttlAttribute: 'expiresAt',
  gsis: [
    { indexName: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    { indexName: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
    { indexName: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk' },
  ],
} as const;

export type GsiName = (typeof TABLE_SCHEMA.gsis)[number]['indexName'];
