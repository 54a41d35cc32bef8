import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';

/**
 * Baseline of the cold-start benchmark: a function that only uses the DynamoDB document client,
 * created on first use like shared/platform/data/client.ts. What every function loads at least.
 */
let doc: DynamoDBDocumentClient | undefined;

export const handler = async (event: { id: string }) => {
  doc ??= DynamoDBDocumentClient.from(new DynamoDBClient({}));
  return doc.send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: { pk: event.id, sk: event.id } }));
};
