import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { keyOf } from '../../../../shared/platform/data/keys';
import type { TransactStep } from '../../../../shared/platform/data/transactions';
import { tableLedgerStore } from '../../../../shared/members/ledger';
import { createOrder } from '../../../../shared/orders/service';
import { createOrderBody } from '../../../../shared/orders/schemas';
import { grantTrigger } from '../../../../shared/campaigns/triggers';
import { ordersWithCampaigns } from '../../../../shared/campaigns/hooks';
import { call } from '../../../support/api';
import { balanceOf, newMember, orderId, tenant, type Tenant } from '../../../support/fixtures';
import { partitionItems, platformTable } from '../../../support/table';

/**
 * A budget set on a campaign while one of its unbudgeted grants is between plan and commit. The
 * grant runs in this process on the platform's DynamoDB Local, its transaction held after it was
 * planned (a ledger store whose commit waits for the test) while the runtime sets the budget and
 * folds the shards; then it is let go. It must not be counted where the budget does not look.
 */
beforeAll(async () => {
  const { runtime } = await platformTable();
  Object.assign(process.env, { STAGE: 'local', TABLE_NAME: runtime.tableName, DYNAMODB_ENDPOINT: runtime.dynamodbEndpoint, AWS_REGION: 'eu-west-1' });
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** A commit that waits: `planned` resolves with the steps once the change was planned, `release()` sends them. */
function heldCommit() {
  let release!: () => void;
  let planned!: (steps: TransactStep[]) => void;
  const gate = new Promise<void>((r) => (release = r));
  const plannedSteps = new Promise<TransactStep[]>((r) => (planned = r));
  const commit = tableLedgerStore.transactWrite;
  let held = false;
  const transactWrite = async (steps: TransactStep[]) => {
    if (!held) {
      held = true;
      planned(steps);
      await gate;
    }
    return commit(steps);
  };
  return { transactWrite, planned: plannedSteps, release };
}

/** Whether the planned change counts on one of the campaign's tally shards (it was planned unbudgeted). */
const countsOnShard = (steps: TransactStep[], campaignId: string) =>
  steps.some((s) => String((s.op.Update?.Key as { sk?: string } | undefined)?.sk ?? '').startsWith(`${campaignId}#`));

async function storedCounts(t: Tenant, campaignId: string) {
  const { doc, tableName } = await platformTable();
  const item = (
    await doc.send(new GetCommand({ TableName: tableName, Key: keyOf('campaign', { workspaceId: t.workspaceId, campaignId }), ConsistentRead: true }))
  ).Item!;
  const shards = await partitionItems(keyOf('campaignTally', { workspaceId: t.workspaceId, campaignId, shard: '0' }).pk, `${campaignId}#`);
  return { grants: item.grants, pointsGranted: item.pointsGranted, inShards: shards.reduce((n, s) => n + Number(s.pointsGranted ?? 0), 0) };
}

async function campaign(t: Tenant, trigger: Record<string, unknown>, totalPoints: number | null = null) {
  const res = await call('POST', '/api/flash/campaigns', {
    token: t.token,
    body: { name: 'Ten more', status: 'active', trigger, effect: { type: 'bonus_points', points: 10 }, limits: { perMember: null, totalPoints } },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

async function setBudget(t: Tenant, campaignId: string, totalPoints: number) {
  const res = await call('PATCH', `/api/flash/campaigns/${campaignId}`, { token: t.token, body: { limits: { perMember: null, totalPoints }, version: 1 } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

describe('a budget set while an unbudgeted grant is in flight', () => {
  it('an order planned before the fold and committed after it is evaluated again under the budget', async () => {
    const t = await tenant('budget-race-order');
    const members = await Promise.all(Array.from({ length: 4 }, () => newMember(t.key)));
    const c = await campaign(t, { type: 'order' });
    const order = (memberId: string) => ({ externalOrderId: orderId('RACE'), memberId, currency: 'EUR', total: 5, occurredAt: new Date().toISOString() });
    for (const m of members.slice(0, 2)) expect((await call('POST', '/api/v2/orders', { token: t.key, body: order(m.id) })).status).toBe(201);

    const hold = heldCommit();
    const store = { ...ordersWithCampaigns, ledger: { ...tableLedgerStore, transactWrite: hold.transactWrite } };
    const held = createOrder(t.workspaceId, createOrderBody.parse(order(members[2].id)), {}, new Date(), store);
    expect(countsOnShard(await hold.planned, c.id)).toBe(true);
    // 20 points granted so far: 10 left of the budget of 30.
    expect(await setBudget(t, c.id, 30)).toMatchObject({ grants: 2, pointsGranted: 20 });
    hold.release();
    expect((await held).duplicate).toBe(false);
    expect(await balanceOf(t.key, members[2].id)).toMatchObject({ balance: 15 });

    // The budget is spent: the next order earns its base points only.
    expect((await call('POST', '/api/v2/orders', { token: t.key, body: order(members[3].id) })).status).toBe(201);
    expect(await balanceOf(t.key, members[3].id)).toMatchObject({ balance: 5 });
    expect(await storedCounts(t, c.id)).toEqual({ grants: 3, pointsGranted: 30, inShards: 0 });
    expect((await call('GET', `/api/flash/campaigns/${c.id}`, { token: t.token })).body.data).toMatchObject({ grants: 3, pointsGranted: 30 });
  });

  it('a trigger grant planned before the fold and committed after it is evaluated again under the budget', async () => {
    const t = await tenant('budget-race-trigger');
    const members = await Promise.all(Array.from({ length: 4 }, () => newMember(t.key)));
    const c = await campaign(t, { type: 'tag_added' });
    const grant = (memberId: string) => grantTrigger(t.workspaceId, memberId, { type: 'tag_added', key: 'tag_added#race' });
    for (const m of members.slice(0, 2)) expect(await grant(m.id)).toBe(1);

    const hold = heldCommit();
    vi.spyOn(tableLedgerStore, 'transactWrite').mockImplementation(hold.transactWrite);
    const held = grant(members[2].id);
    expect(countsOnShard(await hold.planned, c.id)).toBe(true);
    expect(await setBudget(t, c.id, 30)).toMatchObject({ grants: 2, pointsGranted: 20 });
    hold.release();
    expect(await held).toBe(1);
    expect(await grant(members[3].id)).toBe(0);
    expect(await Promise.all(members.map((m) => balanceOf(t.key, m.id)))).toEqual([10, 10, 10, 0].map((b) => ({ balance: b, pending: 0, lifetime: b })));
    expect(await storedCounts(t, c.id)).toEqual({ grants: 3, pointsGranted: 30, inShards: 0 });
  });

  it('a budget lowered while a grant planned on the higher one is in flight: the grant is evaluated again under the new budget', async () => {
    const t = await tenant('budget-race-lowered');
    const members = await Promise.all(Array.from({ length: 3 }, () => newMember(t.key)));
    const c = await campaign(t, { type: 'order' }, 50);
    const order = (memberId: string) => ({ externalOrderId: orderId('LOW'), memberId, currency: 'EUR', total: 5, occurredAt: new Date().toISOString() });
    for (const m of members.slice(0, 2)) expect((await call('POST', '/api/v2/orders', { token: t.key, body: order(m.id) })).status).toBe(201);

    const hold = heldCommit();
    const store = { ...ordersWithCampaigns, ledger: { ...tableLedgerStore, transactWrite: hold.transactWrite } };
    const held = createOrder(t.workspaceId, createOrderBody.parse(order(members[2].id)), {}, new Date(), store);
    await hold.planned;
    expect(await setBudget(t, c.id, 20)).toMatchObject({ grants: 2, pointsGranted: 20 });
    hold.release();
    await held;
    // The order stands with its base points; the budget of 20 is spent.
    expect(await balanceOf(t.key, members[2].id)).toMatchObject({ balance: 5 });
    expect(await storedCounts(t, c.id)).toEqual({ grants: 2, pointsGranted: 20, inShards: 0 });
  });
});
