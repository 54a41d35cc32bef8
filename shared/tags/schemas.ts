import * as z from 'zod';
import { memberTagRecordSchema, tagCounterRecordSchema } from './entities';
import { ID_MAX_LENGTH, idSchema, isoDateTime } from '../platform/validation/common';
import { pageQueryShape } from '../platform/validation/pagination';

/** Tag keys: lower-case slugs, so `VIP` and `vip` can never become two tags. */
export const TAG_KEY = /^[a-z0-9][a-z0-9_-]{0,63}$/;
/** Tags one member may carry (the list lives on the member item). */
export const MAX_TAGS_PER_MEMBER = 100;
/** Tags one request may add (each new tag is two items of the one transaction). */
export const MAX_TAGS_PER_REQUEST = 25;

export const tagKeySchema = z
  .string()
  .regex(TAG_KEY, { message: 'a tag key: a-z, 0-9, _ and -, starting with a letter or digit, at most 64 characters' })
  .describe('Tag key, e.g. `vip` or `newsletter_2026`');

export const tagMemberBody = z
  .strictObject({
    tags: z
      .array(tagKeySchema)
      .min(1)
      .max(MAX_TAGS_PER_REQUEST)
      .describe(`1-${MAX_TAGS_PER_REQUEST} tag keys to add; tags the member already has are left as they are`),
  })
  .meta({ id: 'TagMember' });

export const memberTagParams = z.object({ id: idSchema, tagKey: z.string().max(ID_MAX_LENGTH) });

export const listTagsQuery = z.strictObject({
  ...pageQueryShape,
  prefix: z
    .string()
    .regex(/^[a-z0-9_-]{1,64}$/, { message: 'the start of a tag key' })
    .optional()
    .describe('Only tags whose key starts with this'),
});

// Tags are answered as stored.
export const tagSchema = tagCounterRecordSchema()
  .extend({
    createdAt: isoDateTime.describe('When the tag was first used'),
    updatedAt: isoDateTime.describe('When a member last got or lost the tag'),
  })
  .meta({ id: 'Tag' });

export const memberTagSchema = memberTagRecordSchema().extend({ taggedAt: isoDateTime }).meta({ id: 'MemberTag' });

export const memberTagsSchema = z
  .object({
    memberId: z.string(),
    tags: z.array(memberTagSchema).describe('Every tag of the member, by key'),
  })
  .meta({ id: 'MemberTags' });

export const tagResultSchema = memberTagsSchema
  .extend({ added: z.array(z.string()).describe('Tags this request added (empty when the member had them all)') })
  .meta({ id: 'TagMemberResult' });

export type Tag = z.infer<typeof tagSchema>;
export type MemberTag = z.infer<typeof memberTagSchema>;
export type TagMemberResult = z.infer<typeof tagResultSchema>;
