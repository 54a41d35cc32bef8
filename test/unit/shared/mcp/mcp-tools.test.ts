import { readFileSync } from 'node:fs';
import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { routes } from '../../../../shared/http/declarations';
import { SCOPES } from '../../../../shared/platform/contract/scopes';
import { auditEntry } from '../../../../shared/audit/entry';
import { IDEMPOTENCY_KEY_ARG } from '../../../../shared/mcp/registry';
import { visibleTools } from '../../../../shared/mcp/server';
import { TOOLS } from '../../../../shared/mcp/tools';

const handlerSource = (area: string) => readFileSync(new URL(`../../../../functions/${area}/handler.ts`, import.meta.url), 'utf8');

describe('MCP tool registry', () => {
  it('names every tool once, in snake_case, with a title and a description an agent can act on', () => {
    const names = TOOLS.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    for (const t of TOOLS) {
      expect(t.name).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(t.title.length, t.name).toBeGreaterThan(5);
      expect(t.description.length, t.name).toBeGreaterThan(40);
    }
  });

  it('gives every tool a canonical scope: the scope of the REST route whose domain service it calls', () => {
    for (const t of TOOLS) {
      expect(SCOPES, t.name).toContain(t.scope);
      const route = routes.find((r) => r.operationId === t.rest);
      expect(route, `${t.name} -> ${t.rest}`).toBeDefined();
      expect(route!.auth, t.name).toContain('apiKey');
      expect(route!.scope, t.name).toBe(t.scope);
    }
  });

  it('maps every tool to a domain service that its REST route calls too (one implementation)', () => {
    for (const t of TOOLS) {
      const route = routes.find((r) => r.operationId === t.rest)!;
      const service = t.service.name;
      expect(service, t.name).toMatch(/^[a-zA-Z]+$/);
      // The REST handler of the route's area calls the service...
      expect(handlerSource(route.area), `${route.area} handler calls ${service}`).toMatch(new RegExp(`\\b${service}\\(`));
      // ...and so does the tool.
      // (A named import is compiled to `(0, module.name)(...)`.)
      expect(t.run.toString(), `${t.name} calls ${service}`).toMatch(new RegExp(`\\b${service}\\)?\\(`));
    }
  });

  it('sets every annotation explicitly and consistently with the scope and the kind of tool', () => {
    for (const t of TOOLS) {
      const a = t.annotations;
      for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const)
        expect(typeof a[hint], `${t.name} ${hint}`).toBe('boolean');
      expect(a.openWorldHint, t.name).toBe(false);
      if (t.scope.endsWith(':read')) expect(a.readOnlyHint, t.name).toBe(true);
      if (t.scope.endsWith(':write')) expect(a.readOnlyHint, t.name).toBe(false);
      // Reads change nothing; writes pass the write-rate guard, in the MCP layer or in their service.
      expect(t.writes === undefined, t.name).toBe(a.readOnlyHint);
      if (a.readOnlyHint) expect(a.destructiveHint, t.name).toBe(false);
      if (/^(delete|untag|unenroll)_/.test(t.name)) expect(a.destructiveHint, t.name).toBe(true);
      // Moving value twice is not the same as once: only an idempotencyKey makes those safe to retry.
      if (/^(earn_points|deduct_points|refund_order|issue_coupon|redeem_coupon|redeem_member_coupon)$/.test(t.name)) {
        expect(a.idempotentHint, t.name).toBe(false);
        expect(t.idempotent, t.name).toBe(true);
      }
    }
  });

  it('takes an idempotencyKey exactly on the tools that seal their result in the domain transaction', () => {
    for (const t of TOOLS) {
      const json = z.toJSONSchema(t.input, { io: 'input' }) as { properties?: Record<string, unknown> };
      expect(Object.hasOwn(json.properties ?? {}, IDEMPOTENCY_KEY_ARG), t.name).toBe(t.idempotent === true);
      // Sealed REST operations are declared idempotent in the route table too.
      if (t.idempotent) expect(routes.find((r) => r.operationId === t.rest)!.idempotent, t.name).toBe(true);
    }
  });

  it('has object input and output schemas, and strict inputs (an unknown argument is refused)', () => {
    for (const t of TOOLS) {
      expect((z.toJSONSchema(t.input, { io: 'input' }) as { type?: string }).type, t.name).toBe('object');
      expect(t.input.safeParse({ __unexpected: 1 }).success, t.name).toBe(false);
    }
  });

  it('shows a key only the tools of its scopes', () => {
    expect(visibleTools([]).length).toBe(0);
    const ro = visibleTools(SCOPES.filter((s) => s.endsWith(':read')));
    expect(ro.length).toBeGreaterThan(0);
    expect(ro.every((t) => t.annotations.readOnlyHint)).toBe(true);
    expect(visibleTools([...SCOPES]).length).toBe(TOOLS.length);
  });
});

describe('MCP audit entries', () => {
  const base = { actor: { type: 'apiKey' as const, id: 'key_1' }, requestId: 'req_1' };
  const now = new Date('2026-11-23T12:00:00Z');

  it('records success or failure with the reason, the method, the tool, the duration and the error code', () => {
    const ok = auditEntry(
      {
        ...base,
        action: 'mcp.tool_called',
        target: { type: 'mcpTool', id: 'earn_points' },
        mcp: { method: 'tools/call', tool: 'earn_points', durationMs: 12.4, errorCode: null },
      },
      now,
      'aud_1',
    );
    expect(ok).toMatchObject({ outcome: 'success', reason: null, mcp: { method: 'tools/call', tool: 'earn_points', durationMs: 12, errorCode: null } });
    const failed = auditEntry(
      {
        ...base,
        action: 'mcp.tool_called',
        target: { type: 'mcpTool', id: 'deduct_points' },
        reason: 'tool_error',
        mcp: { method: 'tools/call', tool: 'deduct_points', durationMs: 3, errorCode: 'INSUFFICIENT_POINTS' },
      },
      now,
      'aud_2',
    );
    expect(failed).toMatchObject({ outcome: 'failure', reason: 'tool_error', mcp: { errorCode: 'INSUFFICIENT_POINTS' } });
  });

  it('needs the call details on mcp.* actions only, and redacts what is not a method, tool or code', () => {
    expect(() => auditEntry({ ...base, action: 'mcp.method_called', target: { type: 'mcpServer', id: 'ws_1' } }, now)).toThrow('needs MCP call details');
    expect(() =>
      auditEntry(
        { ...base, action: 'api_key.created', target: { type: 'apiKey', id: 'key_2' }, mcp: { method: 'ping', tool: null, durationMs: 1, errorCode: null } },
        now,
      ),
    ).toThrow('takes no MCP call details');
    const odd = auditEntry(
      {
        ...base,
        action: 'mcp.tool_called',
        target: { type: 'mcpTool', id: 'ada@example.com' },
        reason: 'invalid',
        mcp: { method: 'tools/call; drop', tool: 'ada@example.com', durationMs: Number.NaN, errorCode: 'not a code' },
      },
      now,
      'aud_3',
    );
    expect(odd.target.id).toBe('[redacted]');
    expect(odd.mcp).toEqual({ method: '[redacted]', tool: '[redacted]', durationMs: 0, errorCode: '[redacted]' });
  });
  it('keeps a call without a tool or error code as null, and a negative duration as 0', () => {
    const call = auditEntry(
      {
        ...base,
        action: 'mcp.method_called',
        target: { type: 'mcpServer', id: 'ws_1' },
        mcp: { method: 'initialize', tool: null, durationMs: -2.6, errorCode: null },
      },
      now,
      'aud_4',
    );
    expect(call.mcp).toEqual({ method: 'initialize', tool: null, durationMs: 0, errorCode: null });
  });

  it('keeps an error code only when the whole value is one (not one inside other text)', () => {
    const withCode = (errorCode: string) =>
      auditEntry(
        {
          ...base,
          action: 'mcp.tool_called',
          target: { type: 'mcpTool', id: 'deduct_points' },
          reason: 'tool_error',
          mcp: { method: 'tools/call', tool: 'deduct_points', durationMs: 1, errorCode },
        },
        now,
        'aud_5',
      ).mcp?.errorCode;
    expect(withCode('INSUFFICIENT_POINTS')).toBe('INSUFFICIENT_POINTS');
    expect(withCode('INSUFFICIENT_POINTS; drop table')).toBe('[redacted]');
    expect(withCode('see INSUFFICIENT_POINTS')).toBe('[redacted]');
  });

  it('redacts a method or error code that is not a string, even one that reads as a name when turned into text', () => {
    // Call details come from the JSON-RPC request as sent; an array of one name stringifies to that name.
    const odd = auditEntry(
      {
        ...base,
        action: 'mcp.tool_called',
        target: { type: 'mcpTool', id: 'deduct_points' },
        reason: 'tool_error',
        mcp: {
          method: ['tools/call'] as unknown as string,
          tool: 'deduct_points',
          durationMs: 1,
          errorCode: ['INSUFFICIENT_POINTS'] as unknown as string,
        },
      },
      now,
      'aud_6',
    );
    expect(odd.mcp).toEqual({ method: '[redacted]', tool: 'deduct_points', durationMs: 1, errorCode: '[redacted]' });
  });
});
