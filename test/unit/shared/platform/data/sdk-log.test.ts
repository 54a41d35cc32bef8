import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../../../../shared/platform/data/client';
import { withoutSdkLog } from '../../../../../shared/platform/observability/sdk-log';

const steps = (client: { middlewareStack: { identify(): string[] } }) => client.middlewareStack.identify().join(' ');

describe("the SDK's own logging on the store's clients", () => {
  it('is taken off a client (it redacts a copy of every request and answer even for a no-op logger)', () => {
    const bare = new DynamoDBClient({ region: 'eu-west-1' });
    expect(steps(bare)).toContain('loggerMiddleware');
    expect(steps(withoutSdkLog(bare))).not.toContain('loggerMiddleware');
  });

  it('is off on the document client the platform uses, and its own steps stay', () => {
    const doc = createDocumentClient({ endpoint: 'http://127.0.0.1:1', maxAttempts: 1 });
    expect(steps(doc)).not.toContain('loggerMiddleware');
    expect(steps(doc)).toContain('retryMiddleware');
  });
});
