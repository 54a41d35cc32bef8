import { config } from '../platform/config';
import type { RpcMessage } from './audit';
import { note, idKey, type McpRequestState } from './state';
import { toolNamed } from './tools';

/**
 * Bounds on a JSON-RPC batch: how many write calls it may carry, and how long it may run. Every
 * message of a batch gets an answer within the request deadline, and every call an audit entry.
 */

export interface McpAnswer {
  status: number;
  contentType: string | null;
  body: string;
}

const isWriteCall = (m: RpcMessage): boolean => {
  if (m.method !== 'tools/call' || typeof m.params?.name !== 'string') return false;
  const tool = toolNamed(m.params.name);
  return tool !== undefined && !tool.annotations.readOnlyHint;
};

/** One JSON-RPC error for each message that expects an answer (notifications get none). */
function errorPerMessage(messages: RpcMessage[], code: number, message: string, data?: unknown): McpAnswer {
  const answers = messages.filter((m) => m.id !== undefined).map((m) => ({ jsonrpc: '2.0', id: m.id, error: { code, message, ...(data ? { data } : {}) } }));
  return answers.length === 0 ? { status: 202, contentType: null, body: '' } : { status: 200, contentType: 'application/json', body: JSON.stringify(answers) };
}

/** A batch with more write calls than `maxWriteCallsPerBatch` is refused whole, before anything runs. */
export function refuseTooManyWrites(body: unknown, messages: RpcMessage[]): McpAnswer | undefined {
  if (!Array.isArray(body)) return undefined;
  const max = config.mcp.maxWriteCallsPerBatch;
  const writes = messages.filter(isWriteCall).length;
  if (writes <= max) return undefined;
  return errorPerMessage(
    messages,
    -32600,
    `A batch may carry at most ${max} write tool calls; this one has ${writes}. Nothing in it was run: send the writes in smaller batches.`,
    { code: 'VALIDATION_FAILED' },
  );
}

/**
 * The answer of `serving`, or, should it not come within `budgetMs`, an OUTCOME_UNKNOWN error for
 * every message: a call still running then may yet apply (retry it with the same idempotencyKey).
 * Calls that had not ended are noted as such for the audit.
 */
export async function withinBudget(serving: Promise<McpAnswer>, state: McpRequestState, messages: RpcMessage[], budgetMs: number): Promise<McpAnswer> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<McpAnswer>((resolve) => {
    timer = setTimeout(
      () => {
        for (const m of messages) {
          if (m.id !== undefined && !state.outcomes.has(idKey(m.id))) note(state, m.id, 'tool_error', 'OUTCOME_UNKNOWN');
        }
        resolve(
          errorPerMessage(
            messages,
            -32001,
            'The batch did not finish within the request deadline: the outcome of this call is unknown. Retry it with the same idempotencyKey.',
            { code: 'OUTCOME_UNKNOWN' },
          ),
        );
      },
      Math.max(0, budgetMs),
    );
  });
  try {
    return await Promise.race([serving, late]);
  } finally {
    clearTimeout(timer);
  }
}
