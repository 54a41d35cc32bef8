/**
 * The due work of the time-driven campaign triggers, for one workspace up to its program time `now`:
 * birthdays (through the birthday index, one local day at a time) and inactivity spells (through the
 * activity index, the members whose spell reached a campaign's days since the last run). Each grant
 * is `grantTrigger`'s: exactly once per occurrence, so a run repeated, or two at once, grants nothing
 * twice. The workspace keeps how far the run looked, so a run reads only what is new.
 */
import {
  birthdayMembers,
  getMemberRecord as getMember,
  indexEntriesSteps,
  lastActiveBetween,
  listMemberRecords as listMembers,
  type MemberRecord,
} from '../members';
import { getTriggerProgress, owedTriggers, triggerProgressStep, type TriggerProgress } from './repository';
import { withOptimisticRetry } from '../platform/data/concurrency';
import { transactWrite } from './repository';
import { logger } from '../platform/observability/logger';
import { hasCampaignOf, liveCampaigns } from './definitions';
import { grantOwed, grantTrigger, type TriggerOccurrence } from './triggers';
import type { Campaign } from './schemas';
import { rulesOf } from '../program';
import { birthdayDaysDue, birthMonthDaysOn, inactivityDueAt, spellWindow } from './trigger-dates';

/** The earliest last change of the campaigns: a campaign grants what occurs after it was last set up, not before. */
const since = (campaigns: readonly Campaign[]) => Math.min(...campaigns.map((c) => Date.parse(c.updatedAt)));

/** One member's grant; a failure (an erased member, say) never stops the others, and the next run tries it again. */
async function grantSafely(workspaceId: string, memberId: string, trigger: string, grant: () => Promise<number>): Promise<number> {
  try {
    return await grant();
  } catch (error) {
    logger.warn('campaign trigger grant of a member failed', { workspaceId, memberId, trigger, error: error as Error });
    return 0;
  }
}

/** Every member of each page `page` answers, one after another. */
async function eachMember<T>(
  page: (cursor?: string) => Promise<{ items: T[]; nextCursor?: string | null }>,
  each: (item: T) => Promise<number>,
): Promise<number> {
  let done = 0;
  let cursor: string | undefined;
  do {
    const p = await page(cursor);
    for (const item of p.items) done += await each(item);
    cursor = p.nextCursor ?? undefined;
  } while (cursor);
  return done;
}

/** Birthdays of the local days after the last run's up to today, each granted at the start of its day. */
async function grantBirthdays(
  workspaceId: string,
  campaigns: Campaign[],
  now: Date,
  through: string | undefined,
): Promise<{ granted: number; through?: string }> {
  if (!campaigns.length) return { granted: 0 };
  const { timeZone } = await rulesOf(workspaceId);
  const { days, today } = birthdayDaysDue(through, since(campaigns), now.getTime(), timeZone);
  let granted = 0;
  for (const { day, at } of days) {
    const occurrence: TriggerOccurrence = { type: 'birthday', key: `birthday#${day.year}`, at };
    for (const monthDay of birthMonthDaysOn(day)) {
      granted += await eachMember(
        (cursor) => birthdayMembers(workspaceId, monthDay, cursor),
        (memberId) => grantSafely(workspaceId, memberId, occurrence.type, () => grantTrigger(workspaceId, memberId, occurrence)),
      );
    }
  }
  return { granted, through: today };
}

/** Inactivity spells that reached each campaign's days between the last run and `now`, granted at the moment they did. */
async function grantWinBacks(
  workspaceId: string,
  campaigns: Campaign[],
  now: Date,
  through: string | undefined,
): Promise<{ granted: number; through?: string }> {
  if (!campaigns.length) return { granted: 0 };
  let granted = 0;
  for (const days of new Set(campaigns.map((c) => c.trigger.days!))) {
    const floor = since(campaigns.filter((c) => c.trigger.days === days));
    const window = spellWindow(Math.max(through ? Date.parse(through) : floor, floor), now.getTime(), days);
    if (!window) continue;
    const [after, last] = [new Date(window.after).toISOString(), new Date(window.through).toISOString()];
    granted += await eachMember(
      (cursor) => lastActiveBetween(workspaceId, after, last, cursor),
      ({ memberId, lastActivityAt }) =>
        grantSafely(workspaceId, memberId, 'inactivity', () =>
          grantTrigger(workspaceId, memberId, {
            type: 'inactivity',
            key: `inactivity#${new Date(lastActivityAt).toISOString()}`,
            at: inactivityDueAt(lastActivityAt, days),
            days,
            since: lastActivityAt,
          }),
        ),
    );
  }
  return { granted, through: now.toISOString() };
}

/**
 * Members written before the birthday and activity indexes existed enter them, once per workspace
 * (on its first run with a birthday or inactivity campaign): the one pass over every member, after
 * which each member's own writes keep its entries. Safe to repeat; an erased member stays out.
 */
async function indexEarlierMembers(workspaceId: string): Promise<void> {
  await eachMember(
    (cursor) => listMembers(workspaceId, {}, 100, cursor),
    async (listed) => {
      let m: MemberRecord | undefined = listed;
      await withOptimisticRetry(async () => {
        m ??= await getMember(workspaceId, listed.id);
        const steps = m && !m.erasedAt ? indexEntriesSteps(m) : [];
        // A retry reads the member again.
        m = undefined;
        if (steps.length) await transactWrite(steps);
      });
      return 0;
    },
  );
}

/**
 * What members' creations and taggings still owe (their grant after the change failed), granted and
 * cleared; a grant that fails again stays for the next run (`grantSafely`). Only a workspace that has (or had, while
 * the cached list still holds it) a welcome or tagging campaign can owe anything: others cost no read.
 */
async function grantOwedTriggers(workspaceId: string, now: Date): Promise<number> {
  if (!(await hasCampaignOf(workspaceId, ['member_created', 'tag_added']))) return 0;
  return eachMember(
    (cursor) => owedTriggers(workspaceId, now.toISOString(), 50, cursor),
    (owed) => grantSafely(workspaceId, owed.memberId, owed.type, () => grantOwed(workspaceId, owed)),
  );
}

/**
 * The triggers' due work up to `now`; answers how many rewards it granted. The campaigns come from
 * the cached list: a workspace without a live birthday or inactivity campaign costs no read.
 */
export async function runTriggerWork(workspaceId: string, now: Date): Promise<number> {
  const owed = await grantOwedTriggers(workspaceId, now);
  const [birthdayCampaigns, inactivityCampaigns] = await Promise.all([liveCampaigns(workspaceId, 'birthday'), liveCampaigns(workspaceId, 'inactivity')]);
  if (!birthdayCampaigns.length && !inactivityCampaigns.length) return owed;
  const progress = await getTriggerProgress(workspaceId);
  if (!progress.membersIndexed) await indexEarlierMembers(workspaceId);
  const birthdays = await grantBirthdays(workspaceId, birthdayCampaigns, now, progress.birthdaysThrough);
  const winBacks = await grantWinBacks(workspaceId, inactivityCampaigns, now, progress.inactivityThrough);
  const next: TriggerProgress = {
    ...(progress.membersIndexed ? {} : { membersIndexed: now.toISOString() }),
    ...(birthdays.through ? { birthdaysThrough: birthdays.through } : {}),
    ...(winBacks.through ? { inactivityThrough: winBacks.through } : {}),
  };
  await transactWrite([triggerProgressStep(workspaceId, next)]);
  return owed + birthdays.granted + winBacks.granted;
}
