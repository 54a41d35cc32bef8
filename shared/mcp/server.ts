import { ProtocolError, ProtocolErrorCode, Server, type CallToolResult, type RequestId } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { isTransientDependencyError } from '../platform/data/errors';
import { STORABLE_NUMBER_MESSAGE, unstorableNumberPaths } from '../platform/validation/common';
import { AppError, type ErrorCode } from '../platform/errors';
import { guardWrite } from '../objects';
import { toDetails } from '../platform/validation/validation';
import { errorBodyOf } from '../http/error-body';
import { runIdempotent } from '../http/idempotency';
import { logger } from '../platform/observability/logger';
import { IDEMPOTENCY_KEY_ARG, type ToolContext, type ToolDefinition } from './registry';
import { listResources, readResource, resourceTemplates } from './resources';
import { note as noteOutcome, type CallOutcome, type McpRequestState } from './state';
import { TOOLS, toolNamed } from './tools';

/**
 * One MCP server instance per HTTP request (stateless), built over the tool registry: `tools/list`
 * filtered by the key's scopes, `tools/call` checking the scope again, validating the arguments,
 * passing the write-rate guard and idempotency, then calling the tool's domain service. How each
 * call ended is noted in `state.outcomes` for the audit entry the transport writes.
 */

export const SERVER_INFO = { name: 'loyalty-platform', title: 'Loyalty platform', version: '2.0.0' };

const INSTRUCTIONS =
  'Tools of one workspace of a loyalty platform: members, points, tiers, orders, coupons, tags, stores, catalog, custom objects, webhooks, tracking and ambassador data. ' +
  'Look things up before changing them (find_members, get_object_type). Writes that move value (points, orders, refunds, coupons) take an idempotencyKey: reuse it when retrying the same intention. ' +
  'A refused call comes back as a tool error with a code (e.g. INSUFFICIENT_POINTS, NOT_FOUND, FORBIDDEN) and a message.';

/** JSON Schemas of a tool, converted once per process. */
type ObjectSchema = { type: 'object'; [k: string]: unknown };
const listings = new Map<string, { inputSchema: ObjectSchema; outputSchema: ObjectSchema }>();
function jsonSchemas(tool: ToolDefinition) {
  let l = listings.get(tool.name);
  if (!l) {
    const convert = (schema: z.ZodType, io: 'input' | 'output') => {
      const { $schema: _dialect, ...converted } = z.toJSONSchema(schema, { target: 'draft-2020-12', io }) as Record<string, unknown>;
      // A schema with an id (Member, Coupon...) converts to a bare $ref: MCP wants the object itself at the root.
      const root = typeof converted.$ref === 'string' ? /^#\/\$defs\/(.+)$/.exec(converted.$ref)?.[1] : undefined;
      const defs = converted.$defs as Record<string, Record<string, unknown>> | undefined;
      const json = root && defs?.[root] ? { ...defs[root], $defs: defs } : converted;
      // Every tool's input and output is a zod object (MCP wants an object at the root).
      if (json.type !== 'object') throw new Error(`MCP tool ${tool.name}: the ${io} schema must be an object`);
      return json as ObjectSchema;
    };
    l = { inputSchema: convert(tool.input, 'input'), outputSchema: convert(tool.output, 'output') };
    listings.set(tool.name, l);
  }
  return l;
}

export const visibleTools = (scopes: readonly string[]): ToolDefinition[] => TOOLS.filter((t) => scopes.includes(t.scope));

/** A domain error as a tool result: the REST error body (code, message, request id, docUrl), never internals. */
function errorResult(ctx: ToolContext, error: AppError): CallToolResult {
  const body = errorBodyOf({ code: error.code, message: error.message, details: error.details, requestId: ctx.requestId, origin: ctx.origin });
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }] };
}

/** Anything thrown by a tool, as the AppError its caller may see. */
function asAppError(error: unknown, state: McpRequestState, tool: string): AppError {
  if (error instanceof AppError) return error;
  if (isTransientDependencyError(error)) return new AppError('SERVICE_UNAVAILABLE', 'Temporarily unavailable; retry shortly');
  logger.error('MCP tool failed', { requestId: state.ctx.requestId, tool, error: error as Error });
  return new AppError('INTERNAL', 'Internal error');
}

async function callTool(state: McpRequestState, params: { name: string; arguments?: Record<string, unknown> }, id: RequestId): Promise<CallToolResult> {
  const note = (outcome: CallOutcome, errorCode: ErrorCode | null = null) => noteOutcome(state, id, outcome, errorCode);
  const tool = toolNamed(params.name);
  if (!tool) {
    note('invalid');
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
  }
  // The listing hides what the key may not use; a call by name is checked here all the same.
  if (!state.ctx.principal.scopes.includes(tool.scope)) {
    note('refused', 'FORBIDDEN');
    return errorResult(state.ctx, new AppError('FORBIDDEN', `This API key lacks the scope ${tool.scope}`));
  }
  const parsed = tool.input.safeParse(params.arguments ?? {});
  const unstorable = unstorableNumberPaths(params.arguments ?? {}).map((p) => ({ field: p.map(String).join('.'), message: STORABLE_NUMBER_MESSAGE }));
  if (!parsed.success || unstorable.length > 0) {
    note('invalid');
    const details = unstorable.length > 0 ? unstorable : toDetails('body', parsed.error!, 'arguments').map(({ field, message }) => ({ field, message }));
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Invalid arguments for tool ${tool.name}: ${details.map((d) => `${d.field} ${d.message}`).join('; ')}`,
      {
        code: 'VALIDATION_FAILED',
        details,
      },
    );
  }
  const { [IDEMPOTENCY_KEY_ARG]: idempotencyKey, ...args } = parsed.data as Record<string, unknown>;
  try {
    if (tool.writes === 'guard') {
      try {
        await guardWrite(state.ctx.principal);
      } catch (error) {
        const refusal = asAppError(error, state, tool.name);
        note('refused', refusal.code);
        return errorResult(state.ctx, refusal);
      }
    }
    const result =
      tool.idempotent && typeof idempotencyKey === 'string'
        ? (await runIdempotent(state.ctx.workspaceId, idempotencyKey, { tool: tool.name, arguments: args }, (write) => tool.run(state.ctx, args, write))).result
        : await tool.run(state.ctx, args, {});
    const structured = JSON.parse(JSON.stringify(result ?? null));
    const checked = tool.output.safeParse(structured);
    if (!checked.success) {
      logger.error('MCP tool answer does not match its output schema', {
        requestId: state.ctx.requestId,
        tool: tool.name,
        issues: checked.error.issues.map((i) => i.path.join('.')),
      });
      note('tool_error', 'INTERNAL');
      return errorResult(state.ctx, new AppError('INTERNAL', 'Internal error'));
    }
    note('ok');
    return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
  } catch (error) {
    const failure = asAppError(error, state, tool.name);
    note('tool_error', failure.code);
    return errorResult(state.ctx, failure);
  }
}

/**
 * A handler whose unexpected failures never reach the caller as they are: the SDK would answer a
 * thrown error's message. Protocol errors pass; the store's unavailability and anything else become
 * a bare internal error (logged here with the request id).
 */
const guarded =
  <A extends unknown[], R>(state: McpRequestState, handler: (...args: A) => Promise<R> | R) =>
  async (...args: A): Promise<R> => {
    try {
      return await handler(...args);
    } catch (error) {
      if (error instanceof ProtocolError) throw error;
      if (isTransientDependencyError(error)) throw new ProtocolError(ProtocolErrorCode.InternalError, 'Temporarily unavailable; retry shortly');
      logger.error('MCP request failed', { requestId: state.ctx.requestId, error: error as Error });
      throw new ProtocolError(ProtocolErrorCode.InternalError, 'Internal error');
    }
  };

/** The server of one request. */
export function buildServer(state: McpRequestState): Server {
  const server = new Server(SERVER_INFO, { capabilities: { tools: { listChanged: false }, resources: { listChanged: false } }, instructions: INSTRUCTIONS });
  server.setRequestHandler(
    'tools/list',
    guarded(state, () => ({
      tools: visibleTools(state.ctx.principal.scopes).map((t) => ({
        name: t.name,
        title: t.title,
        description: t.description,
        ...jsonSchemas(t),
        annotations: { title: t.title, ...t.annotations },
      })),
    })),
  );
  server.setRequestHandler(
    'tools/call',
    guarded(state, async (request, ctx) => {
      const result = await callTool(state, request.params, ctx.mcpReq.id);
      const tool = toolNamed(request.params.name);
      return server.projectCallToolResult(result, tool ? jsonSchemas(tool).outputSchema : undefined);
    }),
  );
  server.setRequestHandler(
    'resources/list',
    guarded(state, () => listResources(state)),
  );
  server.setRequestHandler(
    'resources/templates/list',
    guarded(state, () => ({ resourceTemplates: resourceTemplates(state) })),
  );
  server.setRequestHandler(
    'resources/read',
    guarded(state, (request, ctx) => readResource(state, request.params.uri, ctx.mcpReq.id)),
  );
  return server;
}

/** Every scope some tool asks for (the protected-resource metadata lists them). */
export const toolScopes = (): string[] => [...new Set(TOOLS.map((t) => t.scope))];
