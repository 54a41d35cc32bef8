import * as z from 'zod';
import { idSchema } from '../platform/validation/common';
import {
  batchMembersBody,
  batchResultSchema,
  changePointsBody,
  createMemberBody,
  ledgerEntrySchema,
  listMembersQuery,
  memberSchema,
  pointsBalanceSchema,
  pointsExplanationSchema,
  reverseEntryBody,
  pointsAtSchema,
  explainQuery,
  tierStatusSchema,
  updateMemberBody,
} from './schemas';
import { pageQuery } from '../platform/validation/pagination';
import { dataOf, pageOf, errorBody } from '../platform/contract/contract';
import { declareArea } from '../platform/contract/endpoint';

const byId = z.object({ id: idSchema });
const byEntry = z.object({ id: idSchema, entryId: idSchema });
const reverseDescription =
  'Writes a `correction` entry of the opposite amount that names the entry (`source.reversedEntryId`) and marks the entry (`reversedBy`), audited as `member.ledger_entry_reversed`, in one transaction. Balance, lifetime points and the tier metric move back by what the entry moved them (a spend never moved lifetime; lifetime never goes below zero, when a correction took some back already); like a refund, the balance may go below zero. 409 CONFLICT when the entry was already reversed, belongs to an order (refund or reconcile the order), is an expiry, a refund reversal or itself a reversal.';
const pointsPage = dataOf(pointsExplanationSchema.extend({ entries: z.array(ledgerEntrySchema) })).extend({ nextCursor: z.string().nullable() });
const pointsChanged = dataOf(z.object({ entry: ledgerEntrySchema, points: pointsBalanceSchema, tier: z.string() }));
const summary = z.object({ created: z.number().int(), updated: z.number().int(), unchanged: z.number().int(), failed: z.number().int() });

export const membersArea = declareArea({
  area: 'members',
  description: 'Loyalty members: enrolment, profile, custom attributes, points balance and ledger, manual points changes and tier progress.',
  access: { table: 'readWrite', secrets: ['pageCursors'] },
  endpoints: {
    listMembers: {
      method: 'GET',
      path: '/api/v2/members',
      auth: ['apiKey'],
      scope: 'members:read',
      summary: 'List and filter members',
      query: listMembersQuery,
      responses: { 200: pageOf(memberSchema) },
    },
    createMember: {
      method: 'POST',
      path: '/api/v2/members',
      auth: ['apiKey'],
      scope: 'members:write',
      summary: 'Enrol a member',
      idempotent: true,
      body: createMemberBody,
      responses: { 201: dataOf(memberSchema) },
      description: 'E-mail and externalId are each unique per workspace (409 if taken).',
    },
    upsertMembers: {
      method: 'POST',
      path: '/api/v2/members/batch',
      auth: ['apiKey'],
      scope: 'members:write',
      summary: 'Upsert up to 500 members by e-mail or externalId',
      idempotent: true,
      body: batchMembersBody,
      responses: { 200: dataOf(z.object({ results: z.array(batchResultSchema), summary })) },
      description: 'Upserts up to 500 members. Each item is matched by externalId, then e-mail; the response has one result per item, in order.',
    },
    getMember: {
      method: 'GET',
      path: '/api/v2/members/{id}',
      auth: ['apiKey'],
      scope: 'members:read',
      summary: 'Get a member',
      params: byId,
      responses: { 200: dataOf(memberSchema) },
    },
    updateMember: {
      method: 'PATCH',
      path: '/api/v2/members/{id}',
      auth: ['apiKey'],
      scope: 'members:write',
      summary: 'Update a member',
      params: byId,
      body: updateMemberBody,
      responses: { 200: dataOf(memberSchema), 410: errorBody },
    },
    getMemberPoints: {
      method: 'GET',
      path: '/api/v2/members/{id}/points',
      auth: ['apiKey'],
      scope: 'members:read',
      summary: 'Balance and ledger of a member',
      params: byId,
      query: pageQuery,
      responses: { 200: pointsPage },
      description:
        'Balance (spendable), pending (not yet spendable) and lifetime points, what expires when (`expiring`, next dates first), and a page of the ledger, newest first.',
    },
    changeMemberPoints: {
      method: 'POST',
      path: '/api/v2/members/{id}/points',
      auth: ['apiKey'],
      scope: 'members:write',
      summary: 'Manually earn or deduct points',
      idempotent: true,
      params: byId,
      body: changePointsBody,
      responses: { 201: pointsChanged, 410: errorBody },
      description:
        'A deduction larger than the balance is refused with 409 INSUFFICIENT_POINTS. A `correction` takes back points that should not have been given: balance, lifetime points and the tier metric lose them (the balance may go below zero; more than the lifetime points: 409 CONFLICT).',
    },
    reverseLedgerEntry: {
      method: 'POST',
      path: '/api/v2/members/{id}/ledger/{entryId}/reverse',
      auth: ['apiKey'],
      scope: 'members:write',
      summary: 'Reverse one ledger entry by a correction',
      idempotent: true,
      params: byEntry,
      body: reverseEntryBody,
      responses: { 201: pointsChanged, 410: errorBody },
      description: reverseDescription,
    },
    getMemberTier: {
      method: 'GET',
      path: '/api/v2/members/{id}/tier',
      auth: ['apiKey'],
      scope: 'members:read',
      summary: 'Current tier, next tier, progress and until when the tier is kept',
      params: byId,
      responses: { 200: dataOf(tierStatusSchema) },
    },
    explainMemberPoints: {
      method: 'GET',
      path: '/api/v2/members/{id}/explain',
      auth: ['apiKey'],
      scope: 'members:read',
      summary: 'A member’s points, lots and tier as they stood at a moment',
      params: byId,
      query: explainQuery,
      responses: { 200: dataOf(pointsAtSchema) },
      description:
        'Replays the member’s ledger up to `at` (default: now): balance, pending and lifetime points, the open lots with their expiry, the points waiting out pendingDays, and the tier with the metric and window that decided it. A moment after now: 422. See the program guide for how the replay works and its bounds.',
    },
    // The console's member screens: the same services as the API-key routes above, with an admin session.
    searchMembersInConsole: {
      method: 'GET',
      path: '/api/flash/members',
      auth: ['adminSession'],
      permission: 'members:read',
      summary: 'Find members by e-mail or externalId, or page through them (console)',
      query: listMembersQuery,
      responses: { 200: pageOf(memberSchema) },
      description:
        'The member search of `GET /api/v2/members` for the console: `email` or `externalId` finds the one member (an exact lookup), otherwise newest first, by cursor.',
    },
    getMemberProfile: {
      method: 'GET',
      path: '/api/flash/members/{id}',
      auth: ['adminSession'],
      permission: 'members:read',
      summary: 'A member with tier progress (console)',
      params: byId,
      responses: {
        200: dataOf(
          z.object({ member: memberSchema, tier: tierStatusSchema, erasedAt: z.string().nullable().describe('When the member was erased; null if never') }),
        ),
      },
      description: 'The profile, tags and points of `GET /api/v2/members/{id}` and the tier status of `GET /api/v2/members/{id}/tier`, in one answer.',
    },
    getMemberLedger: {
      method: 'GET',
      path: '/api/flash/members/{id}/points',
      auth: ['adminSession'],
      permission: 'members:read',
      summary: 'Balance and ledger of a member (console)',
      params: byId,
      query: pageQuery,
      responses: { 200: pointsPage },
    },
    explainMemberPointsInConsole: {
      method: 'GET',
      path: '/api/flash/members/{id}/explain',
      auth: ['adminSession'],
      permission: 'members:read',
      summary: 'A member’s points at a moment (console)',
      params: byId,
      query: explainQuery,
      responses: { 200: dataOf(pointsAtSchema) },
      description: 'The explanation of `GET /api/v2/members/{id}/explain` for the console.',
    },
    adjustMemberPoints: {
      method: 'POST',
      path: '/api/flash/members/{id}/points',
      auth: ['adminSession'],
      permission: 'members:adjust_points',
      summary: 'Adjust a member’s points with a reason (console)',
      idempotent: true,
      params: byId,
      body: changePointsBody,
      responses: { 201: pointsChanged, 410: errorBody },
      description:
        'The manual earn, deduct or correction of `POST /api/v2/members/{id}/points`, made by a user: audited as `member.points_adjusted` in the same transaction. A deduction larger than the balance is refused with 409 INSUFFICIENT_POINTS.',
    },
    reverseLedgerEntryInConsole: {
      method: 'POST',
      path: '/api/flash/members/{id}/ledger/{entryId}/reverse',
      auth: ['adminSession'],
      permission: 'members:adjust_points',
      summary: 'Reverse one ledger entry by a correction (console)',
      idempotent: true,
      params: byEntry,
      body: reverseEntryBody,
      responses: { 201: pointsChanged, 410: errorBody },
      description: `The reversal of \`POST /api/v2/members/{id}/ledger/{entryId}/reverse\`, made by a user. ${reverseDescription}`,
    },
  },
});
