import type { mcpArea } from '../../mcp/contract';
import type { AreaExamples } from './types';
import { ids, member } from './world';

const metadata = {
  resource: 'https://api.example.com/api/mcp',
  resource_name: 'Loyalty platform MCP server',
  bearer_methods_supported: ['header'],
  scopes_supported: ['members:read', 'members:write', 'orders:read', 'orders:write'],
  resource_documentation: 'https://api.example.com/api/v2/openapi.json',
};

export const mcpExamples: AreaExamples<typeof mcpArea> = {
  callMcp: {
    summary: 'Call the get_member tool',
    request: { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'get_member', arguments: { id: ids.member } } },
    responses: {
      200: { jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: JSON.stringify(member) }], structuredContent: member, isError: false } },
    },
  },
  getProtectedResourceMetadata: { responses: { 200: metadata } },
  getMcpProtectedResourceMetadata: { responses: { 200: metadata } },
};
