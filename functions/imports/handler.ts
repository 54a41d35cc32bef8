import { linkSignerFromConfig } from '../../shared/platform/adapters/link-signer';
import { workflowsFromConfig } from '../../shared/platform/adapters/workflows';
import { applyImport, createImport, getImport, importsArea, previewImport, undoImport } from '../../shared/imports';
import { tableReversalStore } from '../../shared/members';
import { defineArea } from '../../shared/http/area';
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

export const handler = defineArea(importsArea, {
  createImport: async (input) => created(await createImport(principalOf(input.principal).workspaceId, input.body, ports, auditOf(input))),
  getImport: async ({ principal, params }) => ok(await getImport(principalOf(principal).workspaceId, params.id)),
  previewImport: async ({ principal, params }) => ok(await previewImport(principalOf(principal).workspaceId, params.id, ports)),
  applyImport: async ({ principal, params }) => accepted(await applyImport(principalOf(principal).workspaceId, params.id, ports)),
  undoImport: async ({ principal, params }) => ok(await undoImport(principalOf(principal).workspaceId, params.id, { reversals: tableReversalStore })),
});
