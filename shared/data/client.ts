import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { runtimeConfig } from '../config';

let doc: DynamoDBDocumentClient | undefined;

/** The one document client of the process, created on first use (cold start pays once). */
export function documentClient(): DynamoDBDocumentClient {
  if (!doc) {
    const cfg = runtimeConfig();
    const base = new DynamoDBClient({
      region: cfg.AWS_REGION,
      ...(cfg.DYNAMODB_ENDPOINT
        ? { endpoint: cfg.DYNAMODB_ENDPOINT, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
        : {}),
    });
    doc = DynamoDBDocumentClient.from(base, {
      marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
    });
  }
  return doc;
}

export const tableName = (): string => runtimeConfig().TABLE_NAME;
