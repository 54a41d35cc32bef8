import { tagsContract } from '../../shared/contracts/tags';
import * as tags from '../../shared/domain/tags/service';
import { defineArea } from '../../shared/http/area';
import { recorder } from '../../shared/http/idempotency';
import { principalOf } from '../../shared/http/principal';
import { noContent, ok } from '../../shared/http/responses';

export const handler = defineArea('tags', tagsContract, {
  'GET /api/v2/tags': async ({ principal, query }) => {
    const page = await tags.listTags(principalOf(principal).workspaceId, query);
    return ok(page.items, { nextCursor: page.nextCursor ?? null });
  },
  'GET /api/v2/members/{id}/tags': async ({ principal, params }) => ok(await tags.memberTags(principalOf(principal).workspaceId, params.id)),
  'POST /api/v2/members/{id}/tags': async ({ principal, params, body, context }) =>
    ok(await tags.tagMember(principalOf(principal).workspaceId, params.id, body.tags, { seal: recorder(context, ok) })),
  'DELETE /api/v2/members/{id}/tags/{tagKey}': async ({ principal, params }) => {
    await tags.untagMember(principalOf(principal).workspaceId, params.id, params.tagKey);
    return noContent();
  },
});
