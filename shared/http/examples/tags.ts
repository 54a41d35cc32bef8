import type { tagsArea } from '../../tags';
import type { AreaExamples } from './types';
import { ids, memberTags, tag, tagMemberResult } from './world';

export const tagsExamples: AreaExamples<typeof tagsArea> = {
  listTags: { query: { prefix: 'vi', limit: 50 }, responses: { 200: { data: [tag], nextCursor: null } } },
  listMemberTags: { params: { id: ids.member }, responses: { 200: { data: memberTags } } },
  tagMember: {
    summary: 'Tag a member (tags she already has stay as they are)',
    params: { id: ids.member },
    request: { tags: ['vip', 'newsletter'] },
    responses: { 200: { data: tagMemberResult } },
  },
  untagMember: { params: { id: ids.member, tagKey: 'newsletter' }, responses: {} },
  tagMemberInConsole: { params: { id: ids.member }, request: { tags: ['newsletter'] }, responses: { 200: { data: tagMemberResult } } },
  untagMemberInConsole: { params: { id: ids.member, tagKey: 'newsletter' }, responses: {} },
};
