import { objectsContract } from '../../shared/contracts/objects';
import * as types from '../../shared/domain/objects/object-types';
import * as records from '../../shared/domain/objects/records';
import { defineArea } from '../../shared/http/area';
import { recorder } from '../../shared/http/idempotency';
import { principalOf } from '../../shared/http/principal';
import { created, noContent, ok } from '../../shared/http/responses';

const filtersOf = (query: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(query).filter(([k]) => k.startsWith('f_')).map(([k, v]) => [k.slice(2), String(v)]));

export const handler = defineArea('objects', objectsContract, {
  'GET /api/flash/objects/types': async ({ principal }) => ok((await types.listAllObjectTypes(principalOf(principal).workspaceId)).map(types.adminView)),
  'PUT /api/flash/objects/types/{type}': async ({ principal, params, body }) =>
    ok(types.adminView(await types.putObjectType(principalOf(principal).workspaceId, params.type, body))),
  'GET /api/v2/objects': async ({ principal }) => ok((await types.apiObjectTypes(principalOf(principal).workspaceId)).map(types.typeSummary)),
  'GET /api/v2/objects/{type}': async ({ principal, params }) => ok(types.typeDetail(await types.apiObjectType(principalOf(principal).workspaceId, params.type))),
  'GET /api/v2/objects/{type}/records': async ({ principal, params, query }) => {
    const { limit, offset, sortBy, q, memberId } = query;
    const page = await records.listRecords(principalOf(principal), params.type, { limit, offset, sortBy, q, memberId, filters: filtersOf(query) });
    return { status: 200, body: page };
  },
  'POST /api/v2/objects/{type}/records': async ({ principal, params, body, context }) =>
    created(await records.createRecord(principalOf(principal), params.type, body, recorder(context, created))),
  'GET /api/v2/objects/{type}/records/{recordId}': async ({ principal, params }) => ok(await records.getRecord(principalOf(principal), params.type, params.recordId)),
  'PATCH /api/v2/objects/{type}/records/{recordId}': async ({ principal, params, body }) =>
    ok(await records.updateRecord(principalOf(principal), params.type, params.recordId, body)),
  'DELETE /api/v2/objects/{type}/records/{recordId}': async ({ principal, params }) => {
    await records.deleteRecord(principalOf(principal), params.type, params.recordId);
    return noContent();
  },
});
