import type { mcpArea } from '../mcp';
import type { AreaExamples } from './types';
import * as W from './world';

export const mcpExamples: AreaExamples<typeof mcpArea> = {
  callMcp: {
    request: {
          jsonrpc: "2.0",
          id: "TODO_id",
          method: "TODO_method",
          params: {},
        },
    responses: {
      200: W.jsonRpcResponse,
    },
  },
  getProtectedResourceMetadata: {
    responses: {
      200: {
          resource: "TODO_resource",
          resource_name: "TODO_resource_name",
          bearer_methods_supported: ["TODO_bearer_methods_supported"],
          scopes_supported: ["TODO_scopes_supported"],
          resource_documentation: "TODO_resource_documentation",
        },
    },
  },
  getMcpProtectedResourceMetadata: {
    responses: {
      200: {
          resource: "TODO_resource",
          resource_name: "TODO_resource_name",
          bearer_methods_supported: ["TODO_bearer_methods_supported"],
          scopes_supported: ["TODO_scopes_supported"],
          resource_documentation: "TODO_resource_documentation",
        },
    },
  },
};
