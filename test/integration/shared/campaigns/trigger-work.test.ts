import { beforeAll, describe, expect, it } from 'vitest';
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keyOf } from '../../../../shared/platform/data/keys';
import { runTriggerWork } from '../../../../shared/campaigns/trigger-work';
import { call } from '../../../support/api';
import { balanceOf, newMember, tenant } from '../../../support/fixtures';
import { outboxEvents, platformTable } from '../../../support/table';

// The due work runs in this process, on the platform's DynamoDB Local, at instants in the future;
// the API calls go to the runtime.
beforeAll(async () => {
  const { runtime } = await platformTable();
  Object.assign(process.env, { STAGE: 'local', TABLE_NAME: runtime.tableName, DYNAMODB_ENDPOINT: runtime.dynamodbEndpoint, AWS_REGION: 'eu-west-1' });
});

const DAY = 86_400_000;

async function campaign(token: string, body: Record<string, unknown>) {
  const res = await call('POST', '/api/flash/campaigns', { token, body: { status: 'active', ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

/** Birthday and inactivity runs (runTriggerWork), run twice at once and again: each occurrence grants once. */
describe('trigger due work (runTriggerWork)', () => {
  it('two runs at once grant a birthday and a win-back once; a run again grants nothing', async () => {
    const t = await tenant('trigger-work');
    // A birthday 20 days ahead (UTC), so the runtime's own schedule, on real time, has nothing to grant yet.
    const birthday = new Date(Date.now() + 20 * DAY);
    const birthDate = `1990-${birthday.toISOString().slice(5, 10)}`.replace('02-29', '02-28');
    const party = await campaign(t.token, { name: 'Birthday', trigger: { type: 'birthday' }, effect: { type: 'bonus_points', points: 50 } });
    const winBack = await campaign(t.token, { name: 'Win-back', trigger: { type: 'inactivity', days: 30 }, effect: { type: 'bonus_points', points: 7 } });
    const born = await newMember(t.key, { birthDate });
    const active = await newMember(t.key);
    const earned = await call('POST', `/api/v2/members/${active.id}/points`, { token: t.key, body: { type: 'earn', amount: 10, reason: 'welcome' } });
    expect(earned.status).toBe(201);

    const later = new Date(Date.now() + 40 * DAY);
    const runs = await Promise.all([runTriggerWork(t.workspaceId, later), runTriggerWork(t.workspaceId, later)]);
    expect(runs.reduce((a, b) => a + b, 0)).toBe(2);
    expect(await runTriggerWork(t.workspaceId, later)).toBe(0);
    expect(await runTriggerWork(t.workspaceId, new Date(later.getTime() + DAY))).toBe(0);

    expect(await balanceOf(t.key, born.id)).toEqual({ balance: 50, pending: 0, lifetime: 50 });
    expect(await balanceOf(t.key, active.id)).toEqual({ balance: 17, pending: 0, lifetime: 17 });
    const granted = await outboxEvents(t.workspaceId, 'campaign.reward_granted');
    expect(granted.map((e) => [e.data.member_ref, e.data.campaign_id]).sort()).toEqual(
      [
        [born.id, party.id],
        [active.id, winBack.id],
      ].sort(),
    );
  });

  it('an erased member leaves the birthday index: its day grants nothing', async () => {
    const t = await tenant('trigger-work-erased');
    const birthday = new Date(Date.now() + 20 * DAY);
    const birthDate = `1990-${birthday.toISOString().slice(5, 10)}`.replace('02-29', '02-28');
    await campaign(t.token, { name: 'Birthday', trigger: { type: 'birthday' }, effect: { type: 'bonus_points', points: 50 } });
    const kept = await newMember(t.key, { birthDate });
    const erased = await newMember(t.key, { birthDate });
    expect((await call('POST', `/api/v2/members/${erased.id}/erasure`, { token: t.key })).status).toBe(200);
    // The positive control: the member kept gets the day's grant, in the same run.
    expect(await runTriggerWork(t.workspaceId, new Date(Date.now() + 40 * DAY))).toBe(1);
    expect(await balanceOf(t.key, kept.id)).toMatchObject({ balance: 50 });
  });

  it('members written before the birthday and activity indexes enter them on the first run, and get their grants', async () => {
    const t = await tenant('trigger-work-earlier');
    const birthday = new Date(Date.now() + 20 * DAY);
    const birthDate = `1990-${birthday.toISOString().slice(5, 10)}`.replace('02-29', '02-28');
    const born = await newMember(t.key, { birthDate });
    const active = await newMember(t.key);
    expect((await call('POST', `/api/v2/members/${active.id}/points`, { token: t.key, body: { type: 'earn', amount: 10, reason: 'welcome' } })).status).toBe(
      201,
    );
    // As an older version wrote them: no birthday item, no activity key on the member.
    const { doc, tableName } = await platformTable();
    await doc.send(new DeleteCommand({ TableName: tableName, Key: keyOf('memberBirthday', { workspaceId: t.workspaceId, memberId: born.id }) }));
    await doc.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keyOf('member', { workspaceId: t.workspaceId, memberId: active.id }),
        UpdateExpression: 'REMOVE gsi3pk, gsi3sk',
      }),
    );
    await campaign(t.token, { name: 'Birthday', trigger: { type: 'birthday' }, effect: { type: 'bonus_points', points: 50 } });
    await campaign(t.token, { name: 'Win-back', trigger: { type: 'inactivity', days: 30 }, effect: { type: 'bonus_points', points: 7 } });

    expect(await runTriggerWork(t.workspaceId, new Date(Date.now() + 40 * DAY))).toBe(2);
    expect(await balanceOf(t.key, born.id)).toMatchObject({ balance: 50 });
    expect(await balanceOf(t.key, active.id)).toMatchObject({ balance: 17 });
    const birthdayItem = await doc.send(
      new GetCommand({ TableName: tableName, Key: keyOf('memberBirthday', { workspaceId: t.workspaceId, memberId: born.id }) }),
    );
    expect(birthdayItem.Item).toMatchObject({ gsi1sk: `${birthDate.slice(5)}#${born.id}` });
  });
});
