import type { tagsArea } from '../tags';
import type { AreaExamples } from './types';
import * as W from './world';

export const tagsExamples: AreaExamples<typeof tagsArea> = {
  listTags: {
    query: { prefix: "TODO_prefix" },
    responses: {
      200: {
        data: [W.tag],
        nextCursor: "TODO_nextCursor",
      },
    },
  },
  listMemberTags: {
    params: { id: "TODO_id" },
    responses: {
      200: {
        data: W.memberTags,
      },
    },
  },
  tagMember: {
    request: {
        tags: ["TODO_tags"],
      },
    params: { id: "TODO_id" },
    responses: {
      200: {
        data: W.tagMemberResult,
      },
    },
  },
  untagMember: {
    params: { id: "TODO_id", tagKey: "TODO_tagKey" },
    responses: {

    },
  },
};
