import { z } from 'zod';
import { listTagsQuery, memberTagParams, memberTagsSchema, tagMemberBody, tagResultSchema, tagSchema } from '../domain/tags/schemas';
import { contract, dataOf, pageOf } from './contract';

const byId = z.object({ id: z.string() });

export const tagsContract = contract({
  'GET /api/v2/tags': {
    query: listTagsQuery,
    responses: { 200: pageOf(tagSchema) },
    description: 'Tags carried by at least one member, by key, with the number of members that carry each (a counter kept with every tag change, not a count).',
  },
  'GET /api/v2/members/{id}/tags': { params: byId, responses: { 200: dataOf(memberTagsSchema) } },
  'POST /api/v2/members/{id}/tags': {
    params: byId,
    body: tagMemberBody,
    responses: { 200: dataOf(tagResultSchema) },
    description:
      'Adds tags to the member. Idempotent: tags the member already has change nothing and emit nothing; each newly added tag emits `member.tagged`. ' +
      'A member carries at most 100 tags (409 beyond).',
  },
  'DELETE /api/v2/members/{id}/tags/{tagKey}': {
    params: memberTagParams,
    responses: { 204: null },
    description: 'Removes the tag from the member. A tag the member does not carry is 404, like an unknown member.',
  },
});
