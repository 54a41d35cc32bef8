import type { RequestId } from '@modelcontextprotocol/server';
import type { ErrorCode } from '../platform/errors';
import type { ToolContext } from './registry';

/** How a call ended, for the audit trail. */
export type CallOutcome = 'ok' | 'tool_error' | 'refused' | 'invalid';

/** What one HTTP request to the MCP server carries through its handlers. */
export interface McpRequestState {
  ctx: ToolContext;
  /** JSON-RPC id (as JSON) -> outcome, set by the handlers that know more than the bare answer. */
  outcomes: Map<string, { outcome: CallOutcome; errorCode: ErrorCode | null }>;
}

export const idKey = (id: RequestId | undefined): string => JSON.stringify(id ?? null);

export const note = (state: McpRequestState, id: RequestId, outcome: CallOutcome, errorCode: ErrorCode | null = null): void => {
  state.outcomes.set(idKey(id), { outcome, errorCode });
};
