import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { keyOf } from '../../../../shared/platform/data/keys';
import { call, uniqueEmail } from '../../../support/api';
import { balanceOf, newMember, tenant, type Tenant } from '../../../support/fixtures';
import { lossyProxy, TRANSACT, type LossyProxy } from '../../../support/lossy-proxy';
import { runtimeOf, type RuntimeInfo } from '../../../support/platform';
import { outboxEvents, partitionItems } from '../../../support/table';

/**
 * A welcome or tagging reward owed by a change that committed, when the store fails before the grant
 * that follows it: the change stands, the reward is recorded as owed in the change's own transaction,
 * and the due work grants it (once). The changes run in this process against the platform's DynamoDB
 * Local behind a proxy that dies when the change's grant sends its transaction; the due work then
 * runs on fresh modules that reach the store directly.
 */
let runtime: RuntimeInfo;
let t: Tenant;
const proxies: LossyProxy[] = [];

beforeAll(async () => {
  runtime = await runtimeOf(inject('dataDir'));
  Object.assign(process.env, { STAGE: 'local', TABLE_NAME: runtime.tableName, AWS_REGION: 'eu-west-1' });
  t = await tenant('owed-grants');
  for (const [name, trigger, points] of [
    ['Welcome', { type: 'member_created' }, 25],
    ['VIP tag', { type: 'tag_added' }, 40],
  ] as const) {
    const res = await call('POST', '/api/flash/campaigns', {
      token: t.token,
      body: { status: 'active', name, trigger, effect: { type: 'bonus_points', points } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
});
afterAll(async () => {
  await Promise.all(proxies.map((p) => p.close()));
});

/** The domain modules on a store that dies when the second transaction (the grant after the change) is sent. */
async function onDyingStore() {
  const proxy = await lossyProxy(new URL(runtime.dynamodbEndpoint), { swallow: 0, target: TRANSACT, dieAtRequest: 2 });
  proxies.push(proxy);
  vi.resetModules();
  process.env.DYNAMODB_ENDPOINT = proxy.endpoint;
  return {
    proxy,
    members: await import('../../../../shared/members/service'),
    tags: await import('../../../../shared/tags/service'),
    captures: await import('../../../../shared/captures/service'),
    // The campaigns' port, as the handlers pass it (on the same fresh modules).
    triggers: (await import('../../../../shared/campaigns/hooks')).memberTriggers,
  };
}

/** The due work's trigger job on fresh modules that reach the store directly. */
async function dueWork(): Promise<number> {
  vi.resetModules();
  process.env.DYNAMODB_ENDPOINT = runtime.dynamodbEndpoint;
  const { runTriggerWork } = await import('../../../../shared/campaigns/trigger-work');
  return runTriggerWork(t.workspaceId, new Date(Date.now() + 60_000));
}

/** What is still owed to the member, by occurrence. */
async function owedOf(memberId: string): Promise<Record<string, Record<string, unknown>>> {
  const { pk } = keyOf('triggerOwed', { workspaceId: t.workspaceId, memberId, occurrence: '-' });
  return Object.fromEntries((await partitionItems(pk, 'TRIGGER_OWED#')).map((i) => [String(i.occurrence), i]));
}

const rewardsOf = async (memberId: string) => (await outboxEvents(t.workspaceId, 'campaign.reward_granted')).filter((e) => e.data.member_ref === memberId);

describe('a reward owed by a committed change, when the store fails before its grant', () => {
  it('a member created (API path and capture), then a tag added: the changes stand, the due work grants each reward once', async () => {
    const store = await onDyingStore();
    const created = await store.members.createMember(t.workspaceId, { email: uniqueEmail('owed') }, store.triggers);
    // The grant's transaction met the dead store: the member stands, its reward is recorded as owed.
    expect(store.proxy.requests).toBe(2);
    expect(await balanceOf(t.key, created.id)).toEqual({ balance: 0, pending: 0, lifetime: 0 });
    expect(await owedOf(created.id)).toEqual({ member_created: expect.objectContaining({ type: 'member_created', memberId: created.id }) });

    const viaCapture = await onDyingStore();
    const { capture } = await viaCapture.captures.createCapture(
      t.workspaceId,
      { email: uniqueEmail('owed-capture'), source: 'footer_form', consents: {} },
      viaCapture.triggers,
    );
    expect(capture.memberOutcome).toBe('created');
    expect(Object.keys(await owedOf(capture.memberId))).toEqual(['member_created']);

    const tagging = await onDyingStore();
    const tagged = await tagging.tags.tagMember(t.workspaceId, created.id, ['vip'], tagging.triggers);
    expect(tagged.added).toEqual(['vip']);
    const owedTag = Object.values(await owedOf(created.id)).find((o) => o.type === 'tag_added');
    expect(owedTag).toMatchObject({ tags: ['vip'], occurrence: expect.stringMatching(/^tag_added#v\d+$/) });

    await dueWork();
    expect(await balanceOf(t.key, created.id)).toEqual({ balance: 65, pending: 0, lifetime: 65 });
    expect(await balanceOf(t.key, capture.memberId)).toEqual({ balance: 25, pending: 0, lifetime: 25 });
    expect(await owedOf(created.id)).toEqual({});
    expect(await owedOf(capture.memberId)).toEqual({});

    // Once: a run again (and the runtime's own schedule meanwhile) grants nothing more.
    await dueWork();
    expect(await rewardsOf(created.id)).toHaveLength(2);
    expect(await rewardsOf(capture.memberId)).toHaveLength(1);
  });

  it('without a fault the grant follows the change at once and nothing stays owed', async () => {
    const member = await newMember(t.key);
    expect(await balanceOf(t.key, member.id)).toMatchObject({ balance: 25 });
    expect(await owedOf(member.id)).toEqual({});
  });

  it('a member erased before the due work: its owed reward is dropped, not granted, and asks no more runs', async () => {
    const store = await onDyingStore();
    const created = await store.members.createMember(t.workspaceId, { email: uniqueEmail('owed-erased') }, store.triggers);
    expect(Object.keys(await owedOf(created.id))).toEqual(['member_created']);
    expect((await call('POST', `/api/v2/members/${created.id}/erasure`, { token: t.key })).status).toBe(200);
    await dueWork();
    expect(await owedOf(created.id)).toEqual({});
    expect(await rewardsOf(created.id)).toHaveLength(0);
    expect(await balanceOf(t.key, created.id)).toMatchObject({ balance: 0 });
  });
});
