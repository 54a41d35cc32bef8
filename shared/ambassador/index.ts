/**
 * The door of the ambassador area: what other areas, the HTTP layer, MCP, the functions and infra use of it,
 * named one by one. Files inside the area import each other directly (docs/architecture.md).
 */

export { ambassadorArea } from './contract';
export { REFERRAL_OUTCOMES } from './entities';
export type { ReferralOutcome } from './entities';
export { candidateSchema, candidatesQuery, metricsSchema, referralCodeInput, referralCodeSchema } from './schemas';
export { issueReferralCode, listCandidates, metrics, referralLink } from './service';
