import { beforeAll, describe, expect, it } from 'vitest';
import { reviewTiers } from '../../../../shared/members/tier-review';
import { call } from '../../../support/api';
import { newMember, tenant } from '../../../support/fixtures';
import { outboxEvents, platformTable } from '../../../support/table';

// The review runs in this process, on the platform's DynamoDB Local; the API calls go to the runtime.
beforeAll(async () => {
  const { runtime } = await platformTable();
  Object.assign(process.env, { STAGE: 'local', TABLE_NAME: runtime.tableName, DYNAMODB_ENDPOINT: runtime.dynamodbEndpoint, AWS_REGION: 'eu-west-1' });
});

const DAY = 86_400_000;

const program = {
  earn: { pointsPerUnit: 1, rounding: 'floor', currencyOverrides: {} },
  tiers: {
    metric: 'lifetime_points',
    levels: [
      { key: 'bronze', name: 'Bronze', threshold: 0 },
      { key: 'silver', name: 'Silver', threshold: 500 },
      { key: 'gold', name: 'Gold', threshold: 2000 },
    ],
    window: 'rolling_365_days',
    retainDays: 30,
    downgrade: 'one_level',
  },
};

/** The daily tier review on DynamoDB Local, called with instants in the future. */
describe('tier review (reviewTiers)', () => {
  it('finds only the members whose tier can drop by then, steps them down one level per retention, and emits loyalty.tier_downgraded', async () => {
    const t = await tenant('tier-review');
    expect((await call('PUT', '/api/flash/program', { token: t.token, body: program })).status).toBe(200);
    const gold = await newMember(t.key);
    const quiet = await newMember(t.key);
    const earned = await call('POST', `/api/v2/members/${gold.id}/points`, { token: t.key, body: { type: 'earn', amount: 2100, reason: 'welcome' } });
    expect(earned.body.data.tier).toBe('gold');

    const status = (await call('GET', `/api/v2/members/${gold.id}/tier`, { token: t.key })).body.data;
    expect(status).toMatchObject({ current: { key: 'gold' }, window: 'rolling_365_days', value: 2100, next: null, remaining: null });
    // The day's points leave the rolling window 365 days after the day ends (UTC).
    const today = new Date(earned.body.data.entry.createdAt);
    const leaves = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + 1) + 365 * DAY;
    expect(status.retainedUntil).toBe(new Date(leaves).toISOString());

    expect(await reviewTiers(t.workspaceId, new Date(leaves - 1))).toEqual({ reviewed: 0, changed: [] });
    expect(await reviewTiers(t.workspaceId, new Date(leaves))).toEqual({ reviewed: 1, changed: [{ memberId: gold.id, tier: 'silver', change: 'downgraded' }] });
    // Run again at the same instant: silver is kept for its own 30 days, nothing is due.
    expect(await reviewTiers(t.workspaceId, new Date(leaves))).toEqual({ reviewed: 0, changed: [] });
    expect(await reviewTiers(t.workspaceId, new Date(leaves + 30 * DAY))).toEqual({
      reviewed: 1,
      changed: [{ memberId: gold.id, tier: 'bronze', change: 'downgraded' }],
    });
    expect(await reviewTiers(t.workspaceId, new Date(leaves + 3000 * DAY))).toEqual({ reviewed: 0, changed: [] });

    const member = (await call('GET', `/api/v2/members/${gold.id}`, { token: t.key })).body.data;
    expect(member.tier).toBe('bronze');
    expect((await call('GET', `/api/v2/members/${quiet.id}`, { token: t.key })).body.data.tier).toBe('bronze');
    const downgrades = await outboxEvents(t.workspaceId, 'loyalty.tier_downgraded');
    expect(downgrades.map((e) => e.data).sort((a, b) => String(a.tier).localeCompare(String(b.tier)))).toEqual([
      { resource_id: gold.id, member_ref: gold.id, tier: 'bronze' },
      { resource_id: gold.id, member_ref: gold.id, tier: 'silver' },
    ]);
    // The ledger gained no entry: the balance is the member's own.
    expect((await call('GET', `/api/v2/members/${gold.id}/points`, { token: t.key })).body.data).toMatchObject({ balance: 2100, lifetime: 2100 });
  });

  it('an erased member leaves the review index', async () => {
    const t = await tenant('tier-review-erased');
    expect((await call('PUT', '/api/flash/program', { token: t.token, body: program })).status).toBe(200);
    const m = await newMember(t.key);
    await call('POST', `/api/v2/members/${m.id}/points`, { token: t.key, body: { type: 'earn', amount: 600, reason: 'welcome' } });
    expect((await call('POST', `/api/v2/members/${m.id}/erasure`, { token: t.key })).status).toBe(200);
    const later = new Date(Date.now() + 800 * DAY);
    expect(await reviewTiers(t.workspaceId, later)).toEqual({ reviewed: 1, changed: [] });
    expect(await reviewTiers(t.workspaceId, later)).toEqual({ reviewed: 0, changed: [] });
  });
});
