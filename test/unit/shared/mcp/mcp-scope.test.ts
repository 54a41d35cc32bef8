import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { routes } from '../../../../shared/http/declarations';
import { defineTool, READ_ONLY, scopeOfOperation } from '../../../../shared/mcp/registry';
import { TOOLS } from '../../../../shared/mcp/tools/index';

describe('MCP tool scope: derived from the REST operation the tool wraps', () => {
  it('is the scope the operation declares', () => {
    expect(scopeOfOperation('listMembers')).toBe(routes.find((r) => r.operationId === 'listMembers')!.scope);
    expect(scopeOfOperation('listMembers')).toBe('members:read');
  });

  it("defineTool takes no scope of its own and gets the operation's", () => {
    const tool = defineTool({
      name: 'probe',
      title: 'Probe',
      description: 'A tool declared only to see which scope it gets from its REST operation.',
      rest: 'createMember',
      service: () => undefined,
      input: z.strictObject({}),
      output: z.object({}),
      annotations: READ_ONLY,
      run: async () => ({}),
    });
    expect(tool.scope).toBe('members:write');
  });

  it('refuses an unknown operation and one that declares no scope', () => {
    expect(() => scopeOfOperation('noSuchOperation')).toThrow(/no REST operation noSuchOperation/);
    // An operation of an area the tools call (the registry reads only those areas' routes).
    const unscoped = routes.find((r) => !r.scope && r.area === 'members')!;
    expect(() => scopeOfOperation(unscoped.operationId)).toThrow(/declares no scope/);
  });

  it('knows only the routes of the areas its tools call, so the MCP bundle holds no other contract', () => {
    expect(routes.find((r) => r.operationId === 'createApiKey')!.scope).toBe('api_keys:manage');
    expect(() => scopeOfOperation('createApiKey')).toThrow(/no REST operation createApiKey/);
  });

  it("every tool carries its operation's scope", () => {
    for (const t of TOOLS) expect(t.scope, t.name).toBe(scopeOfOperation(t.rest));
  });
});
