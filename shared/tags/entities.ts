/**
 * Tags as the table stores them: the workspace's tag items and a member's tag items, declared once
 * below the domain. Both are answered as stored: the API's schemas derive from these.
 */
import * as z from 'zod';
import { defineEntity } from '../platform/data/entity';

/** A tag of the workspace: its counter item, moved with every tagging. */
export const tagCounterRecordSchema = () =>
  z.object({
    key: z.string(),
    memberCount: z.number().int().describe('Members that carry the tag now'),
    createdAt: z.string(),
    updatedAt: z.string(),
  });
export type TagRecord = z.infer<ReturnType<typeof tagCounterRecordSchema>>;

export const tagCounterEntity = /* @__PURE__ */ defineEntity({
  name: 'tagCounter',
  keys: (t: TagRecord, { workspaceId }: { workspaceId: string }) => ({ workspaceId, tag: t.key }),
});

/** One tag of a member, in the member's partition (the item also names the member). */
export const memberTagRecordSchema = () => z.object({ key: z.string(), taggedAt: z.string() });
export type MemberTagRecord = z.infer<ReturnType<typeof memberTagRecordSchema>>;

export const memberTagEntity = /* @__PURE__ */ defineEntity({
  name: 'memberTag',
  keys: (t: MemberTagRecord, c: { workspaceId: string; memberId: string }) => ({ ...c, tag: t.key }),
  beside: { memberId: (_, c) => c.memberId },
});
