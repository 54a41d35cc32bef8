import { objectsArea } from '../../shared/objects';
import * as types from '../../shared/objects';
import * as records from '../../shared/objects';
import { defineArea } from '../../shared/http/area';
import { sealed } from '../../shared/http/operation';
import { auditOf, principalOf } from '../../shared/http/principal';
import { created, noContent, ok } from '../../shared/http/responses';

const filtersOf = (query: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(query)
      .filter(([k]) => k.startsWith('f_'))
      .map(([k, v]) => [k.slice(2), String(v)]),
  );

export const handler = defineArea(objectsArea, {
  listObjectTypeDefinitions: async ({ principal }) => ok((await types.listAllObjectTypes(principalOf(principal).workspaceId)).map(types.adminView)),
  putObjectTypeDefinition: async (input) =>
    ok(types.adminView(await types.putObjectType(principalOf(input.principal).workspaceId, input.params.type, input.body, auditOf(input)))),
  browseObjectRecords: async ({ principal, params, query }) => {
    const page = await records.browseRecords(principalOf(principal).workspaceId, params.type, query);
    return ok(page.items, { nextCursor: page.nextCursor ?? null });
  },
  listObjectTypes: async ({ principal }) => ok((await types.apiObjectTypes(principalOf(principal).workspaceId)).map(types.typeSummary)),
  getObjectType: async ({ principal, params }) => ok(types.typeDetail(await types.apiObjectType(principalOf(principal).workspaceId, params.type))),
  listObjectRecords: async ({ principal, params, query }) => {
    const { limit, offset, sortBy, q, memberId } = query;
    const page = await records.listRecords(principalOf(principal), params.type, { limit, offset, sortBy, q, memberId, filters: filtersOf(query) });
    return { status: 200, body: page };
  },
  createObjectRecord: sealed(created, ({ principal, params, body }, write) => records.createRecord(principalOf(principal), params.type, body, write)),
  getObjectRecord: async ({ principal, params }) => ok(await records.getRecord(principalOf(principal), params.type, params.recordId)),
  updateObjectRecord: async ({ principal, params, body }) => ok(await records.updateRecord(principalOf(principal), params.type, params.recordId, body)),
  deleteObjectRecord: async ({ principal, params }) => {
    await records.deleteRecord(principalOf(principal), params.type, params.recordId);
    return noContent();
  },
});
