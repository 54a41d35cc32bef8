import { getProgram, programNow } from '../program';
import { validationFailed } from '../platform/errors';
import { logger } from '../platform/observability/logger';
import { localDay } from './points-day';
import { commitFold, readClosedPointDays, readPointShards, type CountedDay, type ShardRead } from './points-repository';
import { daysBetween, pointsReport, previousPeriod, type Granularity, type PointsReport } from './points-report';
import { countedDays, foldsDue } from './points-rollup';
import { MAX_DAYS } from './report-schemas';
import { activeIn, tierCounts } from './members-day';
import { readFigures } from './repository';

const DAY_MS = 86_400_000;
/** Sorts after every day: the tier counters of every day are read. */
const LAST_DAY = '9999-12-31';
/**
 * Folds one read commits at most (a month of every shard), a few at a time: a read folds what the
 * due work has not yet (a month closed since its last run), a history of unfolded months a month per
 * read. The due work's run folds up to a year of every shard.
 */
const FOLDS_PER_READ = 8;
const FOLDS_PER_RUN = 12 * 8;
const FOLDS_AT_ONCE = 4;

/**
 * Folds the closed months the read found still in day items into their roll-ups, oldest first. A
 * month is closed a day after it ended (an expiry the due work books minutes late still lands in
 * its days); what lands later is folded by a later read. The answer never depends on it: a fold
 * that lost to a change or another fold, or was cut off, is left for the next read.
 */
async function foldClosedMonths(workspaceId: string, reads: readonly ShardRead[], openFrom: string, most: number): Promise<number> {
  const folds = reads
    .flatMap((r) => foldsDue(r, openFrom))
    .sort((a, b) => (a.month < b.month ? -1 : a.month > b.month ? 1 : a.shard - b.shard))
    .slice(0, most);
  let failed = 0;
  for (let i = 0; i < folds.length; i += FOLDS_AT_ONCE) {
    const results = await Promise.allSettled(folds.slice(i, i + FOLDS_AT_ONCE).map((f) => commitFold(workspaceId, f)));
    failed += results.filter((r) => r.status === 'rejected').length;
  }
  if (failed > 0) logger.warn('points month folds left for a later run', { folds: folds.length, failed });
  return folds.length - failed;
}

/** The first month still open at `now`: a month closes a day after its last local day. */
const openMonthAt = (now: number, timeZone: string) => localDay(now - DAY_MS, timeZone).slice(0, 7);

/**
 * The due work's share (run with the program's other due work, on the schedule and by a sandbox's
 * clock): every closed month still in day items folded into its roll-ups, so the first report after
 * a month closed reads roll-ups instead of paying for the folds. Reads only the closed months' day
 * items (none once folded); what a fold loses to a concurrent change is folded by the next run or read.
 */
export async function foldClosedPointMonths(workspaceId: string, now: Date): Promise<number> {
  const program = await getProgram(workspaceId);
  const openFrom = openMonthAt(now.getTime(), program.timeZone);
  return foldClosedMonths(workspaceId, await readClosedPointDays(workspaceId, openFrom), openFrom, FOLDS_PER_RUN);
}

/**
 * Every day up to `to` (included), oldest first, each summed over the shards. What the workspace
 * did before a period is its opening balance, so the report reads from the first day: closed months
 * as one roll-up per shard, the open ones day by day.
 */
export async function daysThrough(workspaceId: string, to: string): Promise<CountedDay[]> {
  return countedDays(await readPointShards(workspaceId, to), to);
}

/**
 * The names of campaigns by id (a deleted one left out). The campaigns sit above the overview (they
 * grant through the members' ledger, which counts into it): the handler passes their lookup in.
 */
export type CampaignNames = (workspaceId: string, ids: readonly string[]) => Promise<ReadonlyMap<string, string>>;

/**
 * The points report of a period (local days of the program's time zone): the day counters and
 * month roll-ups through its end, read in one Query per shard, and summed. Default: this month to date.
 */
export async function pointsReportOf(
  workspaceId: string,
  query: { from?: string; to?: string; granularity: Granularity },
  campaignNames: CampaignNames,
): Promise<PointsReport & { campaigns: { name: string | null }[] }> {
  const [program, now] = await Promise.all([getProgram(workspaceId), programNow(workspaceId)]);
  const to = query.to ?? localDay(now.getTime(), program.timeZone);
  const from = query.from ?? `${to.slice(0, 7)}-01`;
  if (from > to) throw validationFailed([{ in: 'query', field: 'from', message: 'must not be after `to`' }]);
  if (daysBetween(from, to).length > MAX_DAYS[query.granularity]) {
    throw validationFailed([{ in: 'query', field: 'from', message: `at most ${MAX_DAYS[query.granularity]} days with granularity ${query.granularity}` }]);
  }
  const reads = await readPointShards(workspaceId, to);
  const report = pointsReport({
    days: countedDays(reads, to),
    from,
    to,
    granularity: query.granularity,
    timeZone: program.timeZone,
    pointValue: program.pointValue,
  });
  const [names] = await Promise.all([
    campaignNames(
      workspaceId,
      report.campaigns.map((c) => c.campaignId),
    ),
    foldClosedMonths(workspaceId, reads, openMonthAt(now.getTime(), program.timeZone), FOLDS_PER_READ),
  ]);
  return { ...report, campaigns: report.campaigns.map((c) => ({ ...c, name: names.get(c.campaignId) ?? null })) };
}

/**
 * Members by tier now and the active members of a period and of the one before (local days of the
 * program's time zone; default: this month to date): the running totals and the day counters, read
 * once, summed (members-day.ts). No scan of the members.
 */
export async function membersReportOf(workspaceId: string, query: { from?: string; to?: string }) {
  const [program, now] = await Promise.all([getProgram(workspaceId), programNow(workspaceId)]);
  const to = query.to ?? localDay(now.getTime(), program.timeZone);
  const from = query.from ?? `${to.slice(0, 7)}-01`;
  if (from > to) throw validationFailed([{ in: 'query', field: 'from', message: 'must not be after `to`' }]);
  const [figures, days] = await Promise.all([readFigures(workspaceId), daysThrough(workspaceId, LAST_DAY)]);
  let counts = tierCounts(figures.counters);
  for (const d of days) for (const [tier, n] of tierCounts(d.counters)) counts.set(tier, (counts.get(tier) ?? 0) + n);
  counts = new Map([...counts].filter(([, n]) => n !== 0));
  const levels = program.tiers.levels;
  const tiers = [
    ...levels.map((l) => ({ tier: l.key, name: l.name, members: counts.get(l.key) ?? 0 })),
    ...[...counts].filter(([k]) => !levels.some((l) => l.key === k)).map(([tier, members]) => ({ tier, name: tier, members })),
  ];
  const previous = previousPeriod(from, to);
  return {
    from,
    to,
    timeZone: program.timeZone,
    members: figures.members,
    tiers,
    active: activeIn(days, from, to),
    previous: { ...previous, active: activeIn(days, previous.from, previous.to) },
  };
}

/** The fold as one of the program's due jobs (composed with them by the functions that run them). */
export const pointsFoldJob = { name: 'pointsFolds', run: foldClosedPointMonths } as const;
