import * as z from 'zod';
import { actorOf, type AuditContext } from '../audit';
import { ambassadorArea } from '../ambassador';
import { catalogArea } from '../catalog';
import { couponsArea } from '../coupons';
import { routesOf } from '../platform/contract/endpoint';
import { membersArea } from '../members';
import { objectsArea } from '../objects';
import { ordersArea } from '../orders';
import { campaignsArea } from '../campaigns';
import { rewardsArea } from '../rewards';
import { storesArea } from '../stores';
import { tagsArea } from '../tags';
import { trackingArea } from '../tracking';
import { webhooksArea } from '../webhooks';
import type { Scope } from '../platform/contract/scopes';
import type { Principal } from '../platform/contract/principal';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../platform/validation/pagination';
import type { WriteOptions } from '../platform/data/write-options';

/**
 * How an MCP tool is declared: once, with the REST scope it needs, the REST operation whose domain
 * service it calls (the same function, never a second implementation), its zod input and output
 * schemas and explicit annotations. The server (`server.ts`) derives `tools/list`, argument
 * validation, scope checks, idempotency and the write-rate guard from these declarations.
 */

export type ApiKeyPrincipal = Extract<Principal, { kind: 'apiKey' }>;

export interface ToolContext {
  principal: ApiKeyPrincipal;
  workspaceId: string;
  requestId: string;
  /** The platform's origin as the caller reached it (`originOf`), for the `docUrl` of tool errors. */
  origin?: string;
}

/** The key calling a tool and the request: what a change's audit entry needs, as `auditOf` for REST. */
export const toolAudit = (ctx: ToolContext): AuditContext => ({ actor: actorOf(ctx.principal), requestId: ctx.requestId });

/** Every hint set explicitly: clients assume the worst for a missing one (not read-only, destructive). */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface ToolDefinition<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  /** snake_case, unique. */
  name: string;
  title: string;
  /** What it does and when to use it, for an agent choosing among tools. */
  description: string;
  /** Derived from `rest` (`defineTool`): the scope the REST operation declares. */
  scope: Scope;
  /** operationId of the REST endpoint whose domain service this tool calls (it needs the same scope). */
  rest: string;
  /** The domain service function both the REST handler and this tool call. */
  service: (...args: never[]) => unknown;
  input: I;
  output: O;
  annotations: ToolAnnotations;
  /**
   * A write, counted by the per-key write-rate guard: `guard` the MCP layer counts it before the
   * tool runs; `service` the domain service counts it itself (record writes), so it counts once.
   */
  writes?: 'guard' | 'service';
  /**
   * Takes an `idempotencyKey` (REST `Idempotency-Key` semantics); `run` gets the sealing step and
   * must return the service's result as it is, since a replay answers the recorded result instead.
   */
  idempotent?: true;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  run: (ctx: ToolContext, args: z.output<I>, write: WriteOptions<any>) => Promise<unknown>;
}

/** A tool as its module declares it: everything but the scope, which is its REST operation's. */
export type ToolDeclaration<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> = Omit<ToolDefinition<I, O>, 'scope'>;

/**
 * The areas whose operations tools call. Only these, not the whole route table: the MCP bundle then
 * leaves out the other areas' contracts (auth, team, exports, wallet...), which no tool uses.
 */
const TOOL_ROUTES = [
  membersArea,
  ordersArea,
  campaignsArea,
  objectsArea,
  couponsArea,
  rewardsArea,
  tagsArea,
  storesArea,
  catalogArea,
  ambassadorArea,
  trackingArea,
  webhooksArea,
].flatMap((area) => routesOf(area));

/** The scope the REST operation declares (a tool calling its domain service needs the same one). */
export function scopeOfOperation(operationId: string): Scope {
  const route = TOOL_ROUTES.find((r) => r.operationId === operationId);
  if (!route) throw new Error(`MCP tool: no REST operation ${operationId}`);
  if (!route.scope) throw new Error(`MCP tool: REST operation ${operationId} declares no scope`);
  return route.scope;
}

export const defineTool = <I extends z.ZodType, O extends z.ZodType>(t: ToolDeclaration<I, O>): ToolDefinition =>
  ({ ...t, scope: scopeOfOperation(t.rest) }) as unknown as ToolDefinition;

/** Annotations of a tool that only reads the workspace. */
export const READ_ONLY: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** Annotations of a write: never open-world (the workspace is a closed system). */
export const write = (hints: { destructive: boolean; idempotent: boolean }): ToolAnnotations => ({
  readOnlyHint: false,
  destructiveHint: hints.destructive,
  idempotentHint: hints.idempotent,
  openWorldHint: false,
});

/** The argument every idempotent tool takes (REST: the `Idempotency-Key` header). */
export const IDEMPOTENCY_KEY_ARG = 'idempotencyKey';
export const idempotencyKeyArg = z
  .string()
  .regex(/^[!-~]{1,255}$/, { message: '1-255 visible ASCII characters' })
  .optional()
  .describe(
    'Makes a retry safe: the same key with the same arguments returns the first result without applying it again (24 hours); the same key with other arguments is refused (IDEMPOTENCY_KEY_REUSED). Use a new key for every new intention.',
  );

/** Cursor pagination arguments of list tools. */
export const pageArgs = {
  limit: z.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE).describe(`How many items, 1-${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE})`),
  cursor: z.string().min(1).max(2048).optional().describe('The nextCursor of the previous result, to get the next page'),
};

/** The output of list tools: a page of items and the cursor of the next one. */
export const pageOf = <S extends z.ZodType>(item: S) =>
  z.object({ items: z.array(item), nextCursor: z.string().nullable().describe('Pass as cursor for the next page; null on the last page') });

export const pageResult = (page: { items: unknown[]; nextCursor?: string | null }) => ({ items: page.items, nextCursor: page.nextCursor ?? null });

export const memberIdArg = z.string().min(1).max(64).describe('The member id (mbr_...), e.g. from find_members');
