import * as z from 'zod';
import { config } from '../platform/config';
import { declareArea } from '../platform/contract/endpoint';

/**
 * The MCP server: one JSON-RPC endpoint (MCP Streamable HTTP, stateless, JSON answers) and the
 * OAuth protected-resource metadata (RFC 9728) its 401 challenge points to. The tools and their
 * scopes are declared in `shared/mcp/tools`; here only the HTTP surface.
 */

const jsonRpcId = z.union([z.string(), z.number().int(), z.null()]);
const jsonRpcError = z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() });

/** A JSON-RPC 2.0 request or notification (loose: the protocol defines the methods and their params). */
export const jsonRpcMessage = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: z
      .union([z.string().max(256), z.number().int()])
      .optional()
      .describe('Absent on notifications'),
    method: z.string().min(1).max(256).describe('e.g. initialize, tools/list, tools/call, resources/read'),
    params: z.record(z.string().max(256), z.unknown()).optional(),
  })
  .meta({ id: 'JsonRpcRequest' });

export const jsonRpcResponse = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: jsonRpcId,
    result: z.record(z.string(), z.unknown()).optional(),
    error: jsonRpcError.optional(),
  })
  .meta({ id: 'JsonRpcResponse' });

export const protectedResourceMetadata = z
  .object({
    resource: z.string().describe('The MCP server: {base}/api/mcp'),
    resource_name: z.string(),
    bearer_methods_supported: z.array(z.string()),
    scopes_supported: z.array(z.string()).describe('The API-key scopes the tools ask for'),
    resource_documentation: z.string(),
  })
  .meta({ id: 'ProtectedResourceMetadata' });

const metadata = {
  auth: ['public'] as const,
  summary: 'OAuth protected-resource metadata of the MCP server (RFC 9728)',
  responses: { 200: protectedResourceMetadata },
  description:
    'Where the 401 challenge of `/api/mcp` points (`WWW-Authenticate: Bearer ... resource_metadata=...`): the resource, the bearer method and the scopes the tools use. Credentials are the workspace API keys (no OAuth authorization server).',
};

export const mcpArea = declareArea({
  area: 'mcp',
  description: 'The Model Context Protocol server: the same capabilities as tools for AI agents, with an API key whose scopes decide which tools it may use.',
  access: { table: 'readWrite', secrets: ['pageCursors'] },
  endpoints: {
    callMcp: {
      method: 'POST',
      path: '/api/mcp',
      auth: ['apiKeyPerTool'],
      summary: 'MCP server (Streamable HTTP, stateless, JSON answers)',
      body: z.union([
        jsonRpcMessage,
        z
          .array(jsonRpcMessage)
          .min(1)
          .max(config.mcp.maxBatchMessages)
          .describe(
            `A batch: at most ${config.mcp.maxBatchMessages} messages (more is a 400), of which at most ${config.mcp.maxWriteCallsPerBatch} write tool calls (more: every message is answered with a JSON-RPC error and nothing runs)`,
          ),
      ]),
      responses: {
        200: z.union([jsonRpcResponse, z.array(jsonRpcResponse)]).describe('The JSON-RPC answer'),
        202: null,
      },
      description:
        'The Model Context Protocol over HTTP (2025 and 2026 revisions), stateless: every request stands alone and is answered with one JSON body (notifications with 202). ' +
        "`tools/list` shows only the tools the key's scopes allow; each `tools/call` checks the tool's scope again. Domain errors are tool results with `isError: true` and the " +
        'code and message of the error table; invalid arguments are the JSON-RPC error -32602. Every call is written to the audit trail (never its arguments). ' +
        'A message the protocol refuses before any method runs (not JSON-RPC, an unsupported protocol revision) is a 400 in the error shape of the API. GET and DELETE are 405 (no streams, no sessions). A missing, unknown or revoked key, or a credential that is not an API key, is 401 with `WWW-Authenticate: Bearer` ' +
        'and `resource_metadata` pointing at `/.well-known/oauth-protected-resource/api/mcp`.',
    },
    getProtectedResourceMetadata: { method: 'GET', path: '/.well-known/oauth-protected-resource', ...metadata },
    getMcpProtectedResourceMetadata: { method: 'GET', path: '/.well-known/oauth-protected-resource/api/mcp', ...metadata },
  },
});
