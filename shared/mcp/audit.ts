import { recordCall } from '../audit';
import type { ErrorCode } from '../platform/errors';
import { emitMetric } from '../platform/observability/metrics';
import { idKey, type CallOutcome, type McpRequestState } from './state';

/**
 * The audit of the JSON-RPC layer: one entry per request or notification of the HTTP request,
 * refused ones included (unknown tool, bad arguments, missing scope), with the method, the tool,
 * the outcome, the duration and the request id, each also counted as `McpCalls` by outcome. The
 * arguments are never read here.
 */

export interface RpcMessage {
  id?: string | number;
  method: string;
  params?: { name?: unknown };
}

interface RpcAnswer {
  id?: string | number | null;
  result?: unknown;
  error?: { code?: number };
}

const isMessage = (m: unknown): m is RpcMessage =>
  typeof m === 'object' && m !== null && (m as { jsonrpc?: unknown }).jsonrpc === '2.0' && typeof (m as { method?: unknown }).method === 'string';

/** The JSON-RPC requests and notifications of a body (one message or a batch). */
export const messagesOf = (body: unknown): RpcMessage[] => (Array.isArray(body) ? body : [body]).filter(isMessage);

function answersOf(text: string): Map<string, RpcAnswer> {
  const answers = new Map<string, RpcAnswer>();
  try {
    const parsed = text ? (JSON.parse(text) as unknown) : undefined;
    for (const a of Array.isArray(parsed) ? parsed : [parsed]) {
      if (a && typeof a === 'object' && 'id' in a) answers.set(idKey((a as RpcAnswer).id ?? undefined), a as RpcAnswer);
    }
  } catch {
    // Not JSON (an HTTP-level refusal): the status decides below.
  }
  return answers;
}

/**
 * A batch refused whole before any message was read (over `maxBatchMessages`): one entry for the
 * request, not one per message, so an oversized batch cannot multiply audit writes.
 */
export async function auditRefusedBatch(state: McpRequestState, durationMs: number, now = new Date()): Promise<void> {
  const { ctx } = state;
  emitMetric('mcpCalls', 1, { outcome: 'invalid' });
  await recordCall(
    ctx.workspaceId,
    {
      action: 'mcp.method_called',
      actor: { type: 'apiKey', id: ctx.principal.keyId },
      target: { type: 'mcpServer', id: ctx.workspaceId },
      requestId: ctx.requestId,
      reason: 'invalid',
      mcp: { method: 'batch', tool: null, durationMs, errorCode: null },
    },
    now,
  );
}

export async function auditMessages(
  state: McpRequestState,
  messages: RpcMessage[],
  answer: { status: number; body: string },
  durationMs: number,
  now = new Date(),
): Promise<void> {
  const answers = answersOf(answer.body);
  const { ctx } = state;
  await Promise.all(
    messages.map((m) => {
      const noted = m.id !== undefined ? state.outcomes.get(idKey(m.id)) : undefined;
      const rpcError = m.id !== undefined && answers.get(idKey(m.id))?.error !== undefined;
      const { outcome, errorCode }: { outcome: CallOutcome; errorCode: ErrorCode | null } = noted ?? {
        outcome: rpcError || answer.status >= 400 ? 'invalid' : 'ok',
        errorCode: null,
      };
      const tool = m.method === 'tools/call' ? (typeof m.params?.name === 'string' ? m.params.name : '') : null;
      // One per JSON-RPC call, by outcome (the tool name is not a dimension: callers choose it).
      emitMetric('mcpCalls', 1, { outcome });
      return recordCall(
        ctx.workspaceId,
        {
          action: tool === null ? 'mcp.method_called' : 'mcp.tool_called',
          actor: { type: 'apiKey', id: ctx.principal.keyId },
          target: tool === null ? { type: 'mcpServer', id: ctx.workspaceId } : { type: 'mcpTool', id: tool },
          requestId: ctx.requestId,
          ...(outcome === 'ok' ? {} : { reason: outcome }),
          mcp: { method: m.method, tool, durationMs, errorCode: outcome === 'tool_error' || outcome === 'refused' ? errorCode : null },
        },
        now,
      );
    }),
  );
}
