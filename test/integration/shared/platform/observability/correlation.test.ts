import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { handler as walletChanges } from '../../../../../functions/wallet-changes/handler';
import { provideLocalAdapters } from '../../../../../infra/local/adapters';
import { LocalQueue } from '../../../../../infra/local/local-queue';
import { keyOf } from '../../../../../shared/platform/data/keys';
import { balanceStep, getMember } from '../../../../../shared/members/repository';
import { transactWrite } from '../../../../../shared/platform/data/transactions';
import { call } from '../../../../support/api';
import { newMember, tenant } from '../../../../support/fixtures';
import { inProcess } from '../../../../support/in-process';
import { platformTable, workspaceItems } from '../../../../support/table';

/**
 * The request id of a change travels with what the change writes: the outbox item (for webhooks)
 * and the member item's `lastRequestId`, which the table stream hands to the wallet push. The
 * requests run in this process (`inProcess`) against the platform's DynamoDB Local.
 */

beforeAll(async () => {
  const { runtime } = await platformTable();
  Object.assign(process.env, {
    STAGE: 'local',
    TABLE_NAME: runtime.tableName,
    DYNAMODB_ENDPOINT: runtime.dynamodbEndpoint,
    LOCAL_QUEUE_DB: runtime.queueDatabase,
    AWS_REGION: 'eu-west-1',
  });
  provideLocalAdapters(tmpdir());
});
afterEach(() => vi.restoreAllMocks());

async function rawMember(workspaceId: string, memberId: string): Promise<Record<string, unknown>> {
  const { doc, tableName } = await platformTable();
  return (await doc.send(new GetCommand({ TableName: tableName, Key: keyOf('member', { workspaceId, memberId }), ConsistentRead: true }))).Item!;
}

describe('the request id of a change', () => {
  it('is stored on its outbox item and as the member lastRequestId; a change no request made removes it', async () => {
    const t = await tenant('corr-member');
    const m = await newMember(t.key);
    const requestId = `corr-${randomUUID()}`;
    const earned = await inProcess('POST', `/api/v2/members/${m.id}/points`, {
      token: t.key,
      body: { type: 'earn', amount: 25, reason: 'test' },
      headers: { 'x-request-id': requestId },
    });
    expect(earned.status).toBe(201);
    expect(earned.headers['x-request-id']).toBe(requestId);
    expect(await rawMember(t.workspaceId, m.id)).toMatchObject({ balance: 25, lastRequestId: requestId });
    const outbox = (await workspaceItems(t.workspaceId, 'outbox')).filter((i) => i.events.some((e: { type: string }) => e.type === 'loyalty.points_earned'));
    expect(outbox.map((i) => i.requestId)).toEqual([requestId]);
    // The member read back through the repository does not show it (it is no member field).
    expect(await getMember(t.workspaceId, m.id)).not.toHaveProperty('lastRequestId');

    const profileRequest = `corr-${randomUUID()}`;
    const patched = await inProcess('PATCH', `/api/v2/members/${m.id}`, {
      token: t.key,
      body: { firstName: 'Corr' },
      headers: { 'x-request-id': profileRequest },
    });
    expect(patched.status).toBe(200);
    expect((await rawMember(t.workspaceId, m.id)).lastRequestId).toBe(profileRequest);

    const current = (await getMember(t.workspaceId, m.id))!;
    await transactWrite([
      balanceStep(
        current,
        { balance: 30, pending: current.pending, lifetime: current.lifetime, orderCount: current.orderCount, tier: current.tier },
        new Date().toISOString(),
        false,
      ),
    ]);
    expect(await rawMember(t.workspaceId, m.id)).not.toHaveProperty('lastRequestId');
  });

  it('the wallet stream consumer puts the member lastRequestId on the push message', async () => {
    const t = await tenant('corr-wallet');
    const m = await newMember(t.key);
    const before = await rawMember(t.workspaceId, m.id);
    const requestId = `corr-${randomUUID()}`;
    await call('POST', `/api/v2/members/${m.id}/points`, {
      token: t.key,
      body: { type: 'earn', amount: 5, reason: 'test' },
      headers: { 'x-request-id': requestId },
    });
    const after = await rawMember(t.workspaceId, m.id);
    expect(after.lastRequestId).toBe(requestId);
    const send = vi.spyOn(LocalQueue.prototype, 'send');
    const record: DynamoDBRecord = {
      eventID: randomUUID(),
      eventName: 'MODIFY',
      eventSource: 'aws:dynamodb',
      dynamodb: {
        OldImage: marshall(before),
        NewImage: marshall(after),
        SequenceNumber: '1',
        StreamViewType: 'NEW_AND_OLD_IMAGES',
      } as DynamoDBRecord['dynamodb'],
    };
    expect(await walletChanges({ Records: [record] })).toEqual({ batchItemFailures: [] });
    const sent = send.mock.calls.filter(([queue]) => queue === 'walletPushes').flatMap(([, messages]) => messages.map((x) => JSON.parse(String(x.body))));
    expect(sent).toEqual([{ workspaceId: t.workspaceId, memberId: m.id, requestId }]);
  });
});
