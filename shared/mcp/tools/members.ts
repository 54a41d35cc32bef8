import * as z from 'zod';
import * as members from '../../members';
import {
  createMemberBody,
  ledgerEntrySchema,
  listMembersQuery,
  memberSchema,
  pointsBalanceSchema,
  pointsExplanationSchema,
  pointsAtSchema,
  explainQuery,
  tierStatusSchema,
  updateMemberBody,
  explainPoints,
} from '../../members';
import * as tags from '../../tags';
import { memberTriggers } from '../../campaigns';
import { listTagsQuery, memberTagsSchema, tagMemberBody, tagResultSchema, tagSchema } from '../../tags';
import { defineTool, idempotencyKeyArg, memberIdArg, pageArgs, pageOf, pageResult, READ_ONLY, toolAudit, write } from '../registry';

/** Members, points, tiers and tags: the tools of the `members:*` scopes. */

const q = listMembersQuery.shape;
const pointsResult = z.object({ entry: ledgerEntrySchema, points: pointsBalanceSchema, tier: z.string() });

/** An earn only: a goodwill gesture that should not lift the member's tier. */
const goodwillArg = {
  countTowardTier: z
    .boolean()
    .optional()
    .describe('false keeps these points out of lifetime points and the tier (a goodwill gesture that should not lift a tier); default true'),
};

const pointsChange = (type: 'earn' | 'deduct') =>
  defineTool({
    name: `${type}_points`,
    title: type === 'earn' ? 'Give points to a member' : 'Take points from a member',
    description:
      type === 'earn'
        ? 'Credits points to a member manually (a goodwill gesture, a correction), with a reason kept in the ledger. Not for orders: create_order awards their points. An unenrolled member earns nothing (CONFLICT). Pass an idempotencyKey so a retry cannot give the points twice.'
        : 'Debits points from a member manually, with a reason kept in the ledger. Never below zero: more than the balance is refused with INSUFFICIENT_POINTS and nothing changes. Pass an idempotencyKey so a retry cannot take the points twice.',
    rest: 'changeMemberPoints',
    service: members.changePointsManually,
    input: z.strictObject({
      memberId: memberIdArg,
      amount: z.number().int().min(1).max(1e9).describe('Whole points, at least 1'),
      reason: z.string().trim().min(1).max(500).describe('Why, in words the member could be shown (kept in the ledger)'),
      ...(type === 'earn' ? goodwillArg : {}),
      idempotencyKey: idempotencyKeyArg,
    }),
    output: pointsResult,
    annotations: write({ destructive: false, idempotent: false }),
    writes: 'guard',
    idempotent: true,
    run: (ctx, a, w) =>
      members.changePointsManually(
        ctx.workspaceId,
        a.memberId,
        {
          type,
          amount: a.amount,
          reason: a.reason,
          ...('countTowardTier' in a && typeof a.countTowardTier === 'boolean' ? { countTowardTier: a.countTowardTier } : {}),
        },
        { audit: toolAudit(ctx) },
        w,
      ),
  });

export const memberTools = [
  defineTool({
    name: 'find_members',
    title: 'Find members',
    description:
      'Finds members, newest first: by exact e-mail or externalId (your own customer id), by tier, status or tag, or by free text (part of e-mail, name, phone or externalId). Give no filter to list all. Returns pages: pass nextCursor back as cursor.',
    rest: 'listMembers',
    service: members.listMembers,
    input: z.strictObject({ ...pageArgs, email: q.email, externalId: q.externalId, tier: q.tier, status: q.status, tag: q.tag, q: q.q }),
    output: pageOf(memberSchema),
    annotations: READ_ONLY,
    run: async (ctx, a) => pageResult(await members.listMembers(ctx.workspaceId, a)),
  }),
  defineTool({
    name: 'get_member',
    title: 'Get a member',
    description: 'One member by id: profile, custom attributes, points balance (balance, pending, lifetime), tier, tags and status.',
    rest: 'getMember',
    service: members.getMember,
    input: z.strictObject({ memberId: memberIdArg }),
    output: memberSchema,
    annotations: READ_ONLY,
    run: (ctx, a) => members.getMember(ctx.workspaceId, a.memberId),
  }),
  defineTool({
    name: 'create_member',
    title: 'Enrol a member',
    description:
      'Enrols a new member. Give an e-mail or an externalId (or both); each is unique in the workspace (CONFLICT if taken: use find_members first). Pass an idempotencyKey so a retry cannot enrol twice.',
    rest: 'createMember',
    service: members.createMember,
    input: z.strictObject({
      member: createMemberBody.describe('The profile: email and/or externalId, names, phone, birthDate, customAttributes'),
      idempotencyKey: idempotencyKeyArg,
    }),
    output: memberSchema,
    annotations: write({ destructive: false, idempotent: false }),
    writes: 'guard',
    idempotent: true,
    run: (ctx, a, w) => members.createMember(ctx.workspaceId, a.member, memberTriggers, w),
  }),
  defineTool({
    name: 'update_member',
    title: 'Update a member',
    description:
      "Changes a member's profile: only the fields given change; customAttributes merge key by key (null removes a key). To end a membership use unenroll_member.",
    rest: 'updateMember',
    service: members.updateMember,
    input: z.strictObject({ memberId: memberIdArg, changes: updateMemberBody.describe('The fields to change (at least one)') }),
    output: memberSchema,
    annotations: write({ destructive: false, idempotent: true }),
    writes: 'guard',
    run: (ctx, a) => members.updateMember(ctx.workspaceId, a.memberId, a.changes),
  }),
  defineTool({
    name: 'unenroll_member',
    title: 'Unenrol a member',
    description:
      'Ends a membership: the member keeps its history but earns nothing more and gets no coupons; wallet passes stop working. Only on an explicit request of the member or the merchant.',
    rest: 'updateMember',
    service: members.updateMember,
    input: z.strictObject({ memberId: memberIdArg }),
    output: memberSchema,
    annotations: write({ destructive: true, idempotent: true }),
    writes: 'guard',
    run: (ctx, a) => members.updateMember(ctx.workspaceId, a.memberId, { status: 'unenrolled' }),
  }),
  defineTool({
    name: 'get_points',
    title: "A member's points and ledger",
    description:
      'Balance (spendable), pending (not yet spendable) and lifetime points of a member, what expires when (next dates first), with a page of the ledger (newest first: earns, deductions, refund reversals, adjustments, expiries).',
    rest: 'getMemberPoints',
    service: members.pointsOf,
    input: z.strictObject({ memberId: memberIdArg, ...pageArgs }),
    output: pointsExplanationSchema.extend({ entries: z.array(ledgerEntrySchema), nextCursor: z.string().nullable() }),
    annotations: READ_ONLY,
    run: async (ctx, a) => {
      const { data, nextCursor } = await members.pointsOf(ctx.workspaceId, a.memberId, a.limit, a.cursor);
      return { ...data, nextCursor };
    },
  }),
  pointsChange('earn'),
  pointsChange('deduct'),
  defineTool({
    name: 'get_tier_status',
    title: "A member's tier",
    description:
      'The tier a member holds, the next tier, the metric it is measured by (lifetime points or completed orders) and its window, the metric value now, what is still missing, the progress (0-1) and until when the current tier is kept without further activity (retainedUntil).',
    rest: 'getMemberTier',
    service: members.tierStatus,
    input: z.strictObject({ memberId: memberIdArg }),
    output: tierStatusSchema,
    annotations: READ_ONLY,
    run: (ctx, a) => members.tierStatus(ctx.workspaceId, a.memberId),
  }),
  defineTool({
    name: 'explain_points',
    title: "A member's points at a moment",
    description:
      "Explains a member's balance as it stood at a moment (default: now), replayed from the ledger: balance, pending and lifetime points, the open lots with when each expires, the points waiting out the pending period, and the tier with the metric and window that decided it. Use it to answer 'why do I have this many points' or 'what did I have on 1 March'.",
    rest: 'explainMemberPoints',
    service: explainPoints,
    input: z.strictObject({ memberId: memberIdArg, at: explainQuery.shape.at }),
    output: pointsAtSchema,
    annotations: READ_ONLY,
    run: (ctx, a) => explainPoints(ctx.workspaceId, a.memberId, a.at),
  }),
  defineTool({
    name: 'list_tags',
    title: 'List tags',
    description: "The workspace's tags (those at least one member carries), by key, with how many members carry each.",
    rest: 'listTags',
    service: tags.listTags,
    input: z.strictObject({ ...pageArgs, prefix: listTagsQuery.shape.prefix }),
    output: pageOf(tagSchema),
    annotations: READ_ONLY,
    run: async (ctx, a) => pageResult(await tags.listTags(ctx.workspaceId, a)),
  }),
  defineTool({
    name: 'get_member_tags',
    title: "A member's tags",
    description: 'The tags a member carries, with when each was added.',
    rest: 'listMemberTags',
    service: tags.memberTags,
    input: z.strictObject({ memberId: memberIdArg }),
    output: memberTagsSchema,
    annotations: READ_ONLY,
    run: (ctx, a) => tags.memberTags(ctx.workspaceId, a.memberId),
  }),
  defineTool({
    name: 'tag_member',
    title: 'Tag a member',
    description:
      'Adds tags (lower-case keys like vip or newsletter_2026) to a member. Tags it already carries change nothing. Returns all its tags and which were added.',
    rest: 'tagMember',
    service: tags.tagMember,
    input: z.strictObject({ memberId: memberIdArg, tags: tagMemberBody.shape.tags }),
    output: tagResultSchema,
    annotations: write({ destructive: false, idempotent: true }),
    writes: 'guard',
    run: (ctx, a) => tags.tagMember(ctx.workspaceId, a.memberId, a.tags, memberTriggers),
  }),
  defineTool({
    name: 'untag_member',
    title: 'Remove a tag from a member',
    description: 'Removes one tag from a member. A tag the member does not carry is NOT_FOUND.',
    rest: 'untagMember',
    service: tags.untagMember,
    input: z.strictObject({ memberId: memberIdArg, tag: z.string().min(1).max(64).describe('The tag key to remove') }),
    output: z.object({ memberId: z.string(), removed: z.string() }),
    annotations: write({ destructive: true, idempotent: true }),
    writes: 'guard',
    run: async (ctx, a) => {
      await tags.untagMember(ctx.workspaceId, a.memberId, a.tag);
      return { memberId: a.memberId, removed: a.tag };
    },
  }),
];
