import { getProgram, programNow } from '../program';
import { validationFailed } from '../platform/errors';
import { localDay } from './points-day';
import { daysThrough } from './points-repository';
import { daysBetween, pointsReport, type Granularity, type PointsReport } from './points-report';
import { MAX_DAYS } from './report-schemas';

/**
 * The points report of a period (local days of the program's time zone): the day counters through
 * its end, read in one Query per shard, and summed. Default: this month to date.
 */
export async function pointsReportOf(workspaceId: string, query: { from?: string; to?: string; granularity: Granularity }): Promise<PointsReport> {
  const [program, now] = await Promise.all([getProgram(workspaceId), programNow(workspaceId)]);
  const to = query.to ?? localDay(now.getTime(), program.timeZone);
  const from = query.from ?? `${to.slice(0, 7)}-01`;
  if (from > to) throw validationFailed([{ in: 'query', field: 'from', message: 'must not be after `to`' }]);
  if (daysBetween(from, to).length > MAX_DAYS[query.granularity]) {
    throw validationFailed([{ in: 'query', field: 'from', message: `at most ${MAX_DAYS[query.granularity]} days with granularity ${query.granularity}` }]);
  }
  const days = await daysThrough(workspaceId, to);
  return pointsReport({ days, from, to, granularity: query.granularity, timeZone: program.timeZone, pointValue: program.pointValue });
}
