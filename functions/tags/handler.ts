import { tagsArea } from '../../shared/tags';
import * as tags from '../../shared/tags';
import { memberTriggers } from '../../shared/campaigns';
import { defineArea } from '../../shared/http/area';
import { sealed } from '../../shared/http/operation';
import { principalOf } from '../../shared/http/principal';
import { noContent, ok } from '../../shared/http/responses';

export const handler = defineArea(tagsArea, {
  listTags: async ({ principal, query }) => {
    const page = await tags.listTags(principalOf(principal).workspaceId, query);
    return ok(page.items, { nextCursor: page.nextCursor ?? null });
  },
  listMemberTags: async ({ principal, params }) => ok(await tags.memberTags(principalOf(principal).workspaceId, params.id)),
  tagMember: sealed(ok, ({ principal, params, body }, write) =>
    tags.tagMember(principalOf(principal).workspaceId, params.id, body.tags, memberTriggers, write),
  ),
  untagMember: async ({ principal, params }) => {
    await tags.untagMember(principalOf(principal).workspaceId, params.id, params.tagKey);
    return noContent();
  },
});
