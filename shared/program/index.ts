/**
 * The door of the program area: what other areas, the HTTP layer, MCP, the functions and infra use of it,
 * named one by one. Files inside the area import each other directly (docs/architecture.md).
 */

export { earnSnapshot, nextTier, pointsFor, reversedFor, tierFor } from './arithmetic';
export { DAY_MS, localDate, startOfLocalDay } from './calendar';
export { advanceClock, getClock, programNow } from './clock';
export { programArea } from './contract';
export { campaignEntity, earnSnapshotSchema, TIER_WINDOWS } from './entities';
export type { CampaignRecord, EarnBasis, EarnCaps, EarnExclusions, EarnSnapshot, PointsRules } from './entities';
export { bySpendOrder, effectiveExpiry, expiringSchedule, expiryAt, inactivityExpiry, lotExpiry, takeFromLots } from './lots';
export type { Lot } from './lots';
export { campaignsNotBefore, FUTURE_SKEW_MS, inTheFuture } from './order-time';
export { dueWorkspaces, dueWorkspaceStep } from './repository';
export { programSchema } from './schemas';
export type { ProgramRules } from './schemas';
export { getProgram, putProgram, rulesOf } from './service';
export { evaluateTier, tierReviewAt, windowMetric } from './tier-metric';
export type { TierDays } from './tier-metric';
export { windowStart } from './tier-rules';
export type { TierState } from './tier-rules';
