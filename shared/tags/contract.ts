import * as z from 'zod';
import { idSchema } from '../platform/validation/common';
import { listTagsQuery, memberTagParams, memberTagsSchema, tagMemberBody, tagResultSchema, tagSchema } from './schemas';
import { dataOf, pageOf, errorBody } from '../platform/contract/contract';
import { declareArea } from '../platform/contract/endpoint';

const byId = z.object({ id: idSchema });

export const tagsArea = declareArea({
  area: 'tags',
  description: 'Free-form tags on members, to segment them; adding is idempotent.',
  access: { table: 'readWrite', secrets: ['pageCursors'] },
  endpoints: {
    listTags: {
      method: 'GET',
      path: '/api/v2/tags',
      auth: ['apiKey'],
      scope: 'members:read',
      summary: "The workspace's tags with member counts",
      query: listTagsQuery,
      responses: { 200: pageOf(tagSchema) },
      description:
        'Tags carried by at least one member, by key, with the number of members that carry each (a counter kept with every tag change, not a count).',
    },
    listMemberTags: {
      method: 'GET',
      path: '/api/v2/members/{id}/tags',
      auth: ['apiKey'],
      scope: 'members:read',
      summary: "A member's tags",
      params: byId,
      responses: { 200: dataOf(memberTagsSchema) },
    },
    tagMember: {
      method: 'POST',
      path: '/api/v2/members/{id}/tags',
      auth: ['apiKey'],
      scope: 'members:write',
      summary: 'Add tags to a member (idempotent)',
      idempotent: true,
      params: byId,
      body: tagMemberBody,
      responses: { 200: dataOf(tagResultSchema), 410: errorBody },
      description:
        'Adds tags to the member. Idempotent: tags the member already has change nothing and emit nothing; each newly added tag emits `member.tagged`. ' +
        'A member carries at most 100 tags (409 beyond).',
    },
    untagMember: {
      method: 'DELETE',
      path: '/api/v2/members/{id}/tags/{tagKey}',
      auth: ['apiKey'],
      scope: 'members:write',
      summary: 'Remove a tag from a member',
      params: memberTagParams,
      responses: { 204: null, 410: errorBody },
      description: 'Removes the tag from the member. A tag the member does not carry is 404, like an unknown member.',
    },
    // The console's member screen: the same services with a session.
    tagMemberInConsole: {
      method: 'POST',
      path: '/api/flash/members/{id}/tags',
      auth: ['adminSession'],
      permission: 'members:tag',
      summary: 'Add tags to a member (console)',
      idempotent: true,
      params: byId,
      body: tagMemberBody,
      responses: { 200: dataOf(tagResultSchema), 410: errorBody },
      description: 'The tagging of `POST /api/v2/members/{id}/tags` for the console.',
    },
    untagMemberInConsole: {
      method: 'DELETE',
      path: '/api/flash/members/{id}/tags/{tagKey}',
      auth: ['adminSession'],
      permission: 'members:tag',
      summary: 'Remove a tag from a member (console)',
      params: memberTagParams,
      responses: { 204: null, 410: errorBody },
      description: 'The removal of `DELETE /api/v2/members/{id}/tags/{tagKey}` for the console.',
    },
  },
});
