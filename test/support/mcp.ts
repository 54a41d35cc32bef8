import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { expect } from 'vitest';

/** The SDK's own MCP client over HTTP against a running platform, noting the request id of each answer. */
export async function mcpClient(baseUrl: string, key: string, opts: { modern?: boolean } = {}) {
  const requestIds: string[] = [];
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/api/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
    fetch: async (url, init) => {
      const res = await fetch(url, init);
      const id = res.headers.get('x-request-id');
      if (id) requestIds.push(id);
      return res;
    },
  });
  const client = new Client({ name: 'e2e', version: '1.0.0' }, opts.modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : undefined);
  await client.connect(transport);
  return { client, requestIds };
}

export type McpClient = Awaited<ReturnType<typeof mcpClient>>['client'];

/** A tool result's structured content, checked against the output schema `tools/list` declares. */
export function outputChecker(tools: { name: string; outputSchema?: Record<string, unknown> }[]) {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  const validators = new Map(tools.map((t) => [t.name, ajv.compile(t.outputSchema ?? {})]));
  return (tool: string, result: { isError?: boolean; structuredContent?: unknown }) => {
    expect(result.isError, `${tool}: ${JSON.stringify(result)}`).toBeFalsy();
    const validate = validators.get(tool);
    expect(validate, `${tool} is listed`).toBeDefined();
    expect(validate!(result.structuredContent), `${tool}: ${JSON.stringify(validate!.errors)}\n${JSON.stringify(result.structuredContent)}`).toBe(true);
    return result.structuredContent as any;
  };
}

/** The error of a tool result with `isError`: the REST error table's code and message. */
export function toolError(result: { isError?: boolean; content?: unknown }): { code: string; message: string; requestId?: string; docUrl?: string } {
  expect(result.isError, JSON.stringify(result)).toBe(true);
  const [first] = result.content as { type: string; text: string }[];
  return JSON.parse(first!.text).error;
}
