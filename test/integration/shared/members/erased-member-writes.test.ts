import { beforeAll, describe, expect, inject, it } from 'vitest';
import * as members from '../../../../shared/members/repository';
import { addTagsSteps } from '../../../../shared/tags/repository';
import { transactWrite } from '../../../../shared/platform/data/transactions';
import { AppError } from '../../../../shared/platform/errors';
import { changePoints, NO_DELTA, tableLedgerStore } from '../../../../shared/members/ledger';
import type { MemberRecord } from '../../../../shared/members/entities';
import { call } from '../../../support/api';
import { newMember, tenant } from '../../../support/fixtures';
import { runtimeOf } from '../../../support/platform';

/**
 * A write racing the erasure: it read the member before the erasure committed, so no check before
 * the write can see it. The repository's conditions on the member item refuse it in its own
 * transaction with MEMBER_ERASED. The services run in this process against the running platform's
 * DynamoDB Local; the member is read (stale) before it is erased over HTTP.
 */

beforeAll(async () => {
  const runtime = await runtimeOf(inject('dataDir'));
  Object.assign(process.env, { STAGE: 'local', TABLE_NAME: runtime.tableName, DYNAMODB_ENDPOINT: runtime.dynamodbEndpoint, AWS_REGION: 'eu-west-1' });
});

const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'committed',
    (e: unknown) => (e instanceof AppError ? e.code : String(e)),
  );

describe('writes racing an erasure', () => {
  it('are refused by the conditions on the member item (MEMBER_ERASED) and change nothing', async () => {
    const t = await tenant('erasure-race');
    const m = await newMember(t.key, { firstName: 'Stale' });
    const stale = (await members.getMember(t.workspaceId, m.id)) as MemberRecord;
    expect((await call('POST', `/api/v2/members/${m.id}/erasure`, { token: t.key })).status).toBe(200);
    const erased = await members.getMember(t.workspaceId, m.id);
    expect(erased?.erasedAt).toEqual(expect.any(String));

    const profile = transactWrite(members.updateProfileSteps(stale, { ...stale, firstName: 'Revived', status: 'active', updatedAt: new Date().toISOString() }));
    expect(await codeOf(profile)).toBe('MEMBER_ERASED');
    // The stale member is handed in as already read: only the balance step's condition can refuse it.
    const earn = changePoints({
      store: tableLedgerStore,
      workspaceId: t.workspaceId,
      memberId: m.id,
      plan: () => ({
        plan: {
          delta: { ...NO_DELTA, balance: 5, lifetime: 5 },
          entry: { type: 'earn', reason: null, source: { type: 'manual', orderId: null, externalOrderId: null, apiKeyId: null } },
          result: () => 'earned',
        },
      }),
      preloaded: stale,
    });
    expect(await codeOf(earn)).toBe('MEMBER_ERASED');
    expect(await codeOf(transactWrite(addTagsSteps(stale, ['late'], ['late'], new Date().toISOString())))).toBe('MEMBER_ERASED');
    expect(await codeOf(transactWrite([members.memberNotErasedStep(t.workspaceId, m.id)]))).toBe('MEMBER_ERASED');

    expect(await members.getMember(t.workspaceId, m.id)).toEqual(erased);
  });
});
