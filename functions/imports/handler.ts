import { linkSignerFromConfig } from '../../shared/platform/adapters/link-signer';
import { workflowsFromConfig } from '../../shared/platform/adapters/workflows';
import { applyImport, createImport, getImport, type ImportOperations, importsArea, listImports, previewImport, undoImport } from '../../shared/imports';
import { tableReversalStore } from '../../shared/members';
import { twinned } from '../../shared/platform/contract/admin-twins';
import { type AreaHandlers, defineArea } from '../../shared/http/area';
import { auditOf, principalOf } from '../../shared/http/principal';
import { accepted, created, ok } from '../../shared/http/responses';

// Adapters are built on first use (per container), not at import.
const ports = {
  get workflows() {
    return workflowsFromConfig();
  },
  // Links and reads through presigned requests: the function carries no S3 client.
  get objectStore() {
    return linkSignerFromConfig();
  },
};

const handlers: AreaHandlers<ImportOperations> = {
  listImports: async ({ principal, query }) => {
    const page = await listImports(principalOf(principal).workspaceId, query);
    return ok(page.items, { nextCursor: page.nextCursor ?? null });
  },
  createImport: async (input) => created(await createImport(principalOf(input.principal).workspaceId, input.body, ports, auditOf(input))),
  getImport: async ({ principal, params }) => ok(await getImport(principalOf(principal).workspaceId, params.id)),
  previewImport: async ({ principal, params }) => ok(await previewImport(principalOf(principal).workspaceId, params.id, ports)),
  applyImport: async ({ principal, params }) => accepted(await applyImport(principalOf(principal).workspaceId, params.id, ports)),
  undoImport: async ({ principal, params }) => ok(await undoImport(principalOf(principal).workspaceId, params.id, { reversals: tableReversalStore })),
};

// One handler per operation, for an API key and for the console alike (the workspace is the caller's).
export const handler = defineArea(importsArea, twinned(handlers));
