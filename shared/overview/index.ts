/**
 * The door of the overview area: what other areas, the HTTP layer, MCP, the functions and infra use of it,
 * named one by one. Files inside the area import each other directly (docs/architecture.md).
 */

export { overviewArea } from './contract';
export { overview } from './figures';
export { activityMove, tierMove } from './members-day';
export { addCounters, backfillMoves, counterOf, dayMoves, localDay } from './points-day';
export type { DayCounters } from './points-day';
export { backfillMonths, backfillProgress, commitBackfillPage, pointsDaySteps } from './points-repository';
export type { BackfillProgress } from './points-repository';
export { addToMonth } from './points-rollup';
export { membersReportOf, pointsFoldJob, pointsReportOf } from './reports';
export { figuresStep } from './repository';
