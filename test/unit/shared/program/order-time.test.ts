import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../../../../shared/program/calendar';
import { campaignsNotBefore, DEFAULT_BACKDATING_LIMIT_DAYS, FUTURE_SKEW_MS, inTheFuture } from '../../../../shared/program/order-time';
import { traceCampaigns, type CampaignFacts } from '../../../../shared/campaigns/evaluation';

const RECORDED = Date.parse('2027-01-02T09:00:00Z');

describe('which time governs an order', () => {
  it('campaigns honour an order sent up to the backdating limit after it occurred: the bound itself, not a millisecond before', () => {
    expect(DEFAULT_BACKDATING_LIMIT_DAYS).toBe(7);
    expect(campaignsNotBefore(RECORDED, 7)).toBe(RECORDED - 7 * DAY_MS);
    expect(campaignsNotBefore(RECORDED, 0)).toBe(RECORDED);
    const bound = campaignsNotBefore(RECORDED, 7);
    const campaign = {
      campaignId: 'cmp_1',
      name: 'December',
      status: 'active' as const,
      startsAt: Date.parse('2026-12-01T00:00:00Z'),
      endsAt: Date.parse('2027-01-01T00:00:00Z'),
      trigger: { type: 'order' as const },
      conditions: [],
      effect: { type: 'bonus_points' as const, points: 5 },
      limits: { perMember: null, totalPoints: null },
      priority: 0,
      stackable: true,
    };
    const at = (occurred: number): string => {
      const facts: CampaignFacts = { trigger: 'order', at: occurred, notBefore: bound, timeZone: 'UTC', member: { tier: 'bronze', tags: [] } };
      return traceCampaigns([{ ...campaign, startsAt: null, endsAt: null }], facts, 10, () => ({ memberGrants: 0, totalPoints: 0 }))[0]!.outcome;
    };
    expect(at(bound)).toBe('granted');
    expect(at(bound - 1000)).toBe('backdated');
    expect(at(bound - 1)).toBe('backdated');
    // A December order sent on 2 January, within the limit: December's campaign.
    const december: CampaignFacts = {
      trigger: 'order',
      at: Date.parse('2026-12-31T20:00:00Z'),
      notBefore: bound,
      timeZone: 'UTC',
      member: { tier: 'bronze', tags: [] },
    };
    expect(traceCampaigns([campaign], december, 10, () => ({ memberGrants: 0, totalPoints: 0 }))[0]!.outcome).toBe('granted');
  });

  it('an order time later than the recording by more than 5 minutes is in the future; up to 5 minutes is clock skew', () => {
    expect(FUTURE_SKEW_MS).toBe(300_000);
    expect(inTheFuture(RECORDED + FUTURE_SKEW_MS, RECORDED)).toBe(false);
    expect(inTheFuture(RECORDED + FUTURE_SKEW_MS + 1, RECORDED)).toBe(true);
    expect(inTheFuture(RECORDED - DAY_MS, RECORDED)).toBe(false);
  });
});
