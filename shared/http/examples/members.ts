import type * as z from 'zod';
import type { createMemberBody, membersArea } from '../../members';
import type { AreaExamples } from './types';
import { at, email, ids, member, newMember, orderEntry, tierStatus, welcomeEntry } from './world';

/** Ada's balance, what expires when, and her ledger's first page (the API-key route and the console's). */
const ledgerPage = {
  data: { ...member.points, expiring: [{ points: member.points.balance, expiresAt: '2027-03-31T22:00:00.000Z' }], entries: [orderEntry, welcomeEntry] },
  nextCursor: null,
};
/** The welcome bonus granted twice by mistake, taken back: a correction naming the second grant. */
const correction = {
  entry: {
    id: 'ple_01jpz8m4c6d8e0f2g4h6j8k0mq',
    type: 'correction' as const,
    amount: -250,
    balanceAfter: 250,
    reason: 'Welcome bonus granted twice',
    source: { type: 'manual' as const, orderId: null, externalOrderId: null, apiKeyId: ids.apiKey, reversedEntryId: 'ple_01jpz8m2b4c6d8e0f2g4h6j8kp' },
    createdAt: at.welcomeBonus,
  },
  points: { balance: 250, pending: 0, lifetime: 250 },
  tier: 'bronze',
};
const reversal = {
  summary: 'Take back a welcome bonus granted twice',
  params: { id: ids.member, entryId: 'ple_01jpz8m2b4c6d8e0f2g4h6j8kp' },
  request: { reason: 'Welcome bonus granted twice' },
  responses: { 201: { data: correction } },
};

/** Ada's points on 20 March, replayed from her two ledger entries. */
const explained = {
  data: {
    at: at.now,
    points: member.points,
    lots: [
      { entryId: ids.welcomeEntry, points: 250, earnedAt: at.welcomeBonus, expiresAt: '2027-03-31T22:00:00.000Z', orderId: null },
      { entryId: ids.orderEntry, points: 59, earnedAt: at.orderRecorded, expiresAt: '2027-03-31T22:00:00.000Z', orderId: ids.order },
    ],
    waiting: [],
    tier: {
      key: 'bronze',
      metric: 'lifetime_points' as const,
      window: 'lifetime' as const,
      value: 309,
      windowFrom: null,
      reachedAt: at.enrolled,
      retainedUntil: null,
    },
    ledger: { replayed: 2, truncated: false, lastEntryAt: at.orderRecorded },
  },
};
export const membersExamples: AreaExamples<typeof membersArea> = {
  listMembers: {
    summary: 'Bronze members tagged vip',
    query: { tier: 'bronze', status: 'active', tag: 'vip', limit: 20 },
    responses: { 200: { data: [member], nextCursor: null } },
  },
  createMember: {
    summary: 'Enrol Ada with her CRM id',
    request: {
      email,
      externalId: 'crm-10042',
      firstName: 'Ada',
      lastName: 'Lovelace',
      phone: '+4930901820',
      birthDate: '1990-12-10',
      customAttributes: { favouriteDrink: 'flat white', newsletter: true },
    },
    responses: { 201: { data: newMember } },
  },
  upsertMembers: {
    summary: 'Sync two CRM contacts: one new, one already known',
    request: {
      members: [
        { externalId: 'crm-10043', email: 'alan.turing@example.com', firstName: 'Alan', lastName: 'Turing' },
        { externalId: 'crm-10042', email, phone: '+4930901820' },
      ] satisfies z.input<typeof createMemberBody>[],
    },
    responses: {
      200: {
        data: {
          results: [
            { index: 0, outcome: 'created', memberId: ids.secondMember, error: null },
            { index: 1, outcome: 'unchanged', memberId: ids.member, error: null },
          ],
          summary: { created: 1, updated: 0, unchanged: 1, failed: 0 },
        },
      },
    },
  },
  getMember: { params: { id: ids.member }, responses: { 200: { data: member } } },
  updateMember: {
    summary: 'Change a phone number and one custom attribute',
    params: { id: ids.member },
    request: { phone: '+4930901899', customAttributes: { favouriteDrink: 'cortado' } },
    responses: {
      200: { data: { ...member, phone: '+4930901899', customAttributes: { ...member.customAttributes, favouriteDrink: 'cortado' }, updatedAt: at.now } },
    },
  },
  getMemberPoints: {
    params: { id: ids.member },
    query: { limit: 2 },
    responses: { 200: ledgerPage },
  },
  changeMemberPoints: {
    summary: 'Award a welcome bonus',
    params: { id: ids.member },
    request: { type: 'earn', amount: 250, reason: 'Welcome bonus' },
    responses: { 201: { data: { entry: welcomeEntry, points: { balance: 250, pending: 0, lifetime: 250 }, tier: 'bronze' } } },
  },
  reverseLedgerEntry: reversal,
  reverseLedgerEntryInConsole: { ...reversal, params: { id: ids.member, entryId: 'ple_01jpz8m2b4c6d8e0f2g4h6j8kp' } },
  getMemberTier: { params: { id: ids.member }, responses: { 200: { data: tierStatus } } },
  explainMemberPoints: { summary: 'Ada’s points as they stood on 20 March', params: { id: ids.member }, query: { at: at.now }, responses: { 200: explained } },
  searchMembersInConsole: {
    summary: 'Find Ada by her e-mail',
    query: { email },
    responses: { 200: { data: [member], nextCursor: null } },
  },
  getMemberProfile: { params: { id: ids.member }, responses: { 200: { data: { member, tier: tierStatus, erasedAt: null } } } },
  getMemberLedger: {
    params: { id: ids.member },
    query: { limit: 20 },
    responses: { 200: ledgerPage },
  },
  explainMemberPointsInConsole: { params: { id: ids.member }, query: { at: at.now }, responses: { 200: explained } },
  adjustMemberPoints: {
    summary: 'A welcome bonus given by hand',
    params: { id: ids.member },
    request: { type: 'earn', amount: 250, reason: 'Welcome bonus' },
    responses: { 201: { data: { entry: welcomeEntry, points: { balance: 250, pending: 0, lifetime: 250 }, tier: 'bronze' } } },
  },
};
