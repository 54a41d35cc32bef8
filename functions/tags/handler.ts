import { tagsArea } from '../../shared/tags';
import * as tags from '../../shared/tags';
import { memberTriggers } from '../../shared/campaigns';
import { defineArea } from '../../shared/http/area';
import { type OperationHandler, sealed } from '../../shared/http/operation';
import { principalOf } from '../../shared/http/principal';
import { noContent, ok } from '../../shared/http/responses';

// One operation each for a key and for the console's session.
const tagging = sealed<Awaited<ReturnType<typeof tags.tagMember>>, typeof tagsArea.endpoints.tagMember>(ok, ({ principal, params, body }, write) =>
  tags.tagMember(principalOf(principal).workspaceId, params.id, body.tags, memberTriggers, write),
);

const untagging: OperationHandler<typeof tagsArea.endpoints.untagMember> = async ({ principal, params }) => {
  await tags.untagMember(principalOf(principal).workspaceId, params.id, params.tagKey);
  return noContent();
};

export const handler = defineArea(tagsArea, {
  listTags: async ({ principal, query }) => {
    const page = await tags.listTags(principalOf(principal).workspaceId, query);
    return ok(page.items, { nextCursor: page.nextCursor ?? null });
  },
  listMemberTags: async ({ principal, params }) => ok(await tags.memberTags(principalOf(principal).workspaceId, params.id)),
  tagMember: tagging,
  untagMember: untagging,
  tagMemberInConsole: tagging,
  untagMemberInConsole: untagging,
});
