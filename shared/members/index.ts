/**
 * The door of the members area: what other areas, the HTTP layer, MCP, the functions and infra use of it,
 * named one by one. Files inside the area import each other directly (docs/architecture.md).
 */

export { upsertMembers } from './batch';
export type { PlannedReversal } from './bonus-lots';
export { bonusClaim, claimOf, parseClaim } from './claims';
export { membersArea } from './contract';
export { reverseEntry, tableReversalStore } from './corrections';
export type { ReversalStore } from './corrections';
export { memberEntity } from './entities';
export type { MemberRecord } from './entities';
export { ACTIVATION_REASON } from './explain';
export { explainPoints } from './explanation';
export { assignTier, bookOpeningBalance, restoreTier, takeBackOpeningBalance } from './imported';
export { changePoints, EXPIRY, isMemberId, loadMember, loadWritableMember, memberThrough, NO_DELTA, tableLedgerStore, writable } from './ledger';
export type { ChangePlan, LedgerStore, PlannedGrant } from './ledger';
export { activationsAt, expire, nextDueAt, NO_LOTS, warningDue } from './member-lots';
export { backfillPoints } from './points-backfill';
export { reversalOf } from './points-lots';
export { removeIfUntouched } from './removal';
export {
  birthdayMembers,
  dueMembers,
  erasedOr,
  getMember as getMemberRecord,
  indexEntriesSteps,
  lastActiveBetween,
  listMembers as listMemberRecords,
  memberExistsStep,
  memberIdByEmail,
  memberIdByExternalId,
  memberNotErasedStep,
  NOT_ERASED,
  updateProfileSteps,
} from './repository';
export {
  createMemberBody,
  explainQuery,
  externalIdSchema,
  ledgerEntrySchema,
  listMembersQuery,
  memberSchema,
  pointsAtSchema,
  pointsBalanceSchema,
  pointsExplanationSchema,
  tierStatusSchema,
  updateMemberBody,
} from './schemas';
export { changePointsManually, createMember, getMember, listMembers, memberCreation, memberProfile, pointsOf, tierStatus, updateMember } from './service';
export type { PointsResult } from './service';
export { reviewTiers } from './tier-review';
export { NOTHING_OWED } from './triggers';
export type { MemberTriggers, OwedGrants } from './triggers';
export { toMember } from './types';
export type { PointsDelta } from './types';
