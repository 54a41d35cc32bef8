import { mcpHandler } from '../../shared/mcp/area';

/** The MCP server at /api/mcp and its protected-resource metadata (no ports: tools reach only the table). */
export const handler = mcpHandler();
