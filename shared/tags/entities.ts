/**
 * Tags as the table stores them: the workspace's tag items and a member's tag items, declared once
 * below the domain. Both are answered as stored: the API's schemas derive from these.
 */
import * as z from 'zod';
import { defineEntity } from '../platform/data/entity';

/** A tag of the workspace: its counter item, moved with every tagging. */
export const tagCounterEntity = defineEntity({
  name: 'tagCounter',
  schema: z.object({
    key: z.string(),
    memberCount: z.number().int().describe('Members that carry the tag now'),
    createdAt: z.string(),
    updatedAt: z.string(),
  }),
  keys: (t, { workspaceId }: { workspaceId: string }) => ({ workspaceId, tag: t.key }),
});
export type TagRecord = z.infer<typeof tagCounterEntity.schema>;

/** One tag of a member, in the member's partition (the item also names the member). */
export const memberTagEntity = defineEntity({
  name: 'memberTag',
  schema: z.object({ key: z.string(), taggedAt: z.string() }),
  keys: (t, c: { workspaceId: string; memberId: string }) => ({ ...c, tag: t.key }),
  beside: { memberId: (_, c) => c.memberId },
});
export type MemberTagRecord = z.infer<typeof memberTagEntity.schema>;
