/**
 * The triggers other than an order (a member created, a birthday, a tag added, an inactivity
 * spell): each occurrence granted once per campaign, as one change of the member.
 */
import * as repo from './repository';
import { AppError } from '../platform/errors';
import { logger } from '../platform/observability/logger';
import { changePoints, NO_DELTA, NOTHING_OWED, type MemberTriggers, tableLedgerStore } from '../members';
import { programNow } from '../program';
import type { CampaignFacts, CampaignRule } from './evaluation';
import { liveCampaigns } from './definitions';
import { grantsFor, NO_ORDER } from './grants';

/** One occurrence of a trigger other than an order. */
export interface TriggerOccurrence {
  type: Exclude<CampaignRule['trigger']['type'], 'order'>;
  /** Names the occurrence for the member (`member_created`, `tag_added#v7`, `birthday#2027`, ...): a campaign grants it once. */
  key: string;
  /** When it happened (program time; default: the program clock now): the campaigns' dates are compared with it, and the grant is dated at it. */
  at?: number;
  /** tag_added: the tags this tagging added, which `member.tags` conditions read. */
  tags?: readonly string[];
  /** inactivity: the spell's days; only the campaigns of exactly these days take part. */
  days?: number;
  /** inactivity: the last activity the spell started at; a member active since is no longer in it. */
  since?: number;
}

/**
 * Grants the live campaigns of a trigger other than an order to a member: one change of the member
 * (ledger entries, coupons, counters, events) with a marker per campaign and occurrence, put only if
 * absent, so a retry or a parallel run grants nothing twice. The member's tier is the one it has;
 * order fields never hold. Answers how many rewards it granted.
 */
export async function grantTrigger(workspaceId: string, memberId: string, occurrence: TriggerOccurrence): Promise<number> {
  const campaigns = await liveCampaigns(workspaceId, occurrence.type, occurrence.days);
  if (!campaigns.length) return 0;
  const at = occurrence.at === undefined ? await programNow(workspaceId) : new Date(occurrence.at);
  return changePoints<number>({
    store: tableLedgerStore,
    workspaceId,
    memberId,
    plan: async (member, rules) => {
      if (occurrence.since !== undefined && member.lots?.lastActivityAt !== occurrence.since) return { done: 0 };
      // Each attempt reads the list again: a counting step that failed (a budget set meanwhile) dropped the cached one.
      const live = await liveCampaigns(workspaceId, occurrence.type, occurrence.days);
      const granted = await repo.triggerGranted(
        workspaceId,
        memberId,
        live.map((c) => c.id),
        occurrence.key,
      );
      const facts: CampaignFacts = {
        trigger: occurrence.type,
        at: at.getTime(),
        timeZone: rules.timeZone,
        member: { tier: member.tier || rules.tiers.levels[0]!.key, tags: occurrence.tags ?? member.tags ?? [] },
      };
      const open = live.filter((c) => !granted.has(c.id));
      const grants = await grantsFor(workspaceId, member, open, facts, 0, NO_ORDER, occurrence.days);
      if (!grants.length) return { done: 0 };
      const marked = grants.map((g) => ({
        ...g,
        steps: [...g.steps, repo.triggerGrantStep(workspaceId, memberId, g.campaignId, occurrence.key, at.toISOString())],
      }));
      return {
        plan: {
          delta: NO_DELTA,
          entry: { type: 'campaign', reason: null, source: { type: 'campaign', ...NO_ORDER, apiKeyId: null } },
          requireActive: true,
          grants: marked,
          result: () => marked.length,
        },
      };
    },
    now: () => at,
  });
}

/**
 * The rewards a change (a member created, a tag added) owes for the trigger it makes occur. The
 * record goes into the change's own transaction, so it stands or falls with the change: when the
 * grant after the commit fails (a store fault), the due work finds the record and grants it, and the
 * markers keep it to once either way. Without a live campaign of the trigger it costs nothing.
 */
export const owedGrants: MemberTriggers = async (workspaceId, memberId, occurrence) => {
  if (!(await liveCampaigns(workspaceId, occurrence.type)).length) return NOTHING_OWED;
  const at = (await programNow(workspaceId)).toISOString();
  const owed: repo.OwedTrigger = {
    memberId,
    type: occurrence.type,
    occurrence: occurrence.key,
    at,
    ...(occurrence.tags ? { tags: [...occurrence.tags] } : {}),
  };
  return {
    steps: [repo.owedTriggerStep(workspaceId, owed)],
    settle: async () => {
      try {
        await grantOwed(workspaceId, owed);
      } catch (error) {
        logger.warn('campaign grants of a trigger failed; the due work grants them', {
          workspaceId,
          memberId,
          trigger: occurrence.type,
          error: error as Error,
        });
      }
    },
  };
};

/** Grants what a trigger owes (what was granted already is skipped) and clears the record. Answers the rewards granted. */
export async function grantOwed(workspaceId: string, owed: repo.OwedTrigger): Promise<number> {
  let granted = 0;
  try {
    granted = await grantTrigger(workspaceId, owed.memberId, {
      type: owed.type,
      key: owed.occurrence,
      at: Date.parse(owed.at),
      ...(owed.tags ? { tags: owed.tags } : {}),
    });
  } catch (error) {
    // A refusal (the member was erased or unenrolled meanwhile) stays a refusal: nothing is owed any more.
    // A store fault is thrown, and the record stays for the next run.
    if (!(error instanceof AppError)) throw error;
  }
  await repo.clearOwedTrigger(workspaceId, owed.memberId, owed.occurrence);
  return granted;
}
