import { newId } from '../platform/ids';
import type { Principal } from '../platform/contract/principal';
import {
  AUDIT_FAILURE_REASONS,
  type AuditAction,
  type AuditActor,
  type AuditChange,
  type AuditEntry,
  type AuditFailureReason,
  type AuditTarget,
  type McpCallDetail,
} from './entities';
import { AUDIT_CATALOG } from './catalog';

/**
 * Building an audit entry: pure. An entry holds ids, names from the catalog, a time and the request
 * id, and nothing else. It is built field by field from what the caller passes, so whatever else an
 * object carries (an e-mail, a key hash, a secret) never reaches it; and every id is checked, so a
 * value that is not a plain id (an e-mail, anything with a secret's prefix) is stored as
 * `[redacted]` instead of failing the change it records.
 */

export interface AuditInput {
  action: AuditAction;
  actor: AuditActor;
  target: AuditTarget;
  requestId: string;
  /** Required exactly for the catalog's failure actions; for `either` actions, present when the attempt failed. */
  reason?: AuditFailureReason;
  /** Required exactly for `mcp.*` actions. */
  mcp?: McpCallDetail;
  /** Only for the catalog's configuration changes (`changes: true`): what changed (`diffOf`). */
  changes?: AuditChange[];
}

/** Who made a change, as the audit trail names them: the ids of the credential, never the credential. */
export function actorOf(principal: Principal): AuditActor {
  return principal.kind === 'apiKey' ? { type: 'apiKey', id: principal.keyId } : { type: 'user', id: principal.userId };
}

export const REDACTED = '[redacted]';

/** What an id or request id may look like in an entry (the request-id rule: no `@`, no spaces). */
export const PLAIN_VALUE = /^[A-Za-z0-9._:-]{1,128}$/;
/** Prefixes of the platform's secrets: API keys, sessions, reset tokens, webhook signing secrets. */
export const SECRET_PREFIXES: readonly string[] = ['fl_live_', 'fl_test_', 'fl_sess_', 'fl_reset_', 'fl_cs_', 'whsec_'];

/** The value if it is a plain id, otherwise `[redacted]`. */
export function plainValue(value: unknown): string {
  if (typeof value !== 'string' || !PLAIN_VALUE.test(value)) return REDACTED;
  return SECRET_PREFIXES.some((p) => value.startsWith(p)) ? REDACTED : value;
}

function actorEntry(actor: AuditActor): AuditActor {
  switch (actor.type) {
    case 'user':
    case 'apiKey':
      return { type: actor.type, id: plainValue(actor.id) };
    case 'anonymous':
      return { type: 'anonymous' };
    default:
      throw new Error(`unknown audit actor type ${String((actor as { type: unknown }).type)}`);
  }
}

/**
 * One entry of the trail. The action must be in the catalog and name a target of the catalog's
 * type; a failure action needs a reason and a success action takes none (programming errors, so
 * they throw).
 */
export function auditEntry(input: AuditInput, now: Date, id: string = newId('aud', now.getTime())): AuditEntry {
  const info = Object.hasOwn(AUDIT_CATALOG, input.action) ? AUDIT_CATALOG[input.action] : undefined;
  if (!info) throw new Error(`${input.action} is not in the audit catalog`);
  if (input.target.type !== info.target) throw new Error(`${input.action} targets a ${info.target}, not a ${input.target.type}`);
  const failure = info.outcome === 'either' ? input.reason !== undefined : info.outcome === 'failure';
  if (failure !== (input.reason !== undefined)) throw new Error(`${input.action} ${failure ? 'needs a' : 'takes no'} reason`);
  if (input.reason !== undefined && !AUDIT_FAILURE_REASONS.includes(input.reason)) throw new Error(`${input.reason} is not an audit failure reason`);
  const isMcp = input.action.startsWith('mcp.');
  if (isMcp !== (input.mcp !== undefined)) throw new Error(`${input.action} ${isMcp ? 'needs' : 'takes no'} MCP call details`);
  if (input.changes !== undefined && !info.changes) throw new Error(`${input.action} records no changes`);
  return {
    id,
    occurredAt: now.toISOString(),
    action: input.action,
    outcome: failure ? 'failure' : 'success',
    reason: input.reason ?? null,
    actor: actorEntry(input.actor),
    target: { type: info.target, id: plainValue(input.target.id) },
    requestId: plainValue(input.requestId),
    ...(input.mcp ? { mcp: mcpDetail(input.mcp) } : {}),
    ...(input.changes ? { changes: input.changes.map(changeOf) } : {}),
  };
}

/** A change as the entry keeps it: its field and the sides it has, nothing else the object carries. */
const changeOf = ({ field, before, after }: AuditChange): AuditChange => ({
  field,
  ...(before !== undefined ? { before } : {}),
  ...(after !== undefined ? { after } : {}),
});

/** A JSON-RPC method name as the caller sent it, kept only when it looks like one (`tools/call`). */
const METHOD_NAME = /^[a-z][A-Za-z0-9_/]{0,63}$/;
/** The REST error table's codes (`INSUFFICIENT_POINTS`). */
const ERROR_CODE = /^[A-Z][A-Z_]{0,63}$/;

/** Built field by field like the rest of the entry: names and numbers only, anything else redacted. */
function mcpDetail(d: McpCallDetail): McpCallDetail {
  return {
    method: typeof d.method === 'string' && METHOD_NAME.test(d.method) ? d.method : REDACTED,
    tool: d.tool === null ? null : plainValue(d.tool),
    durationMs: Number.isFinite(d.durationMs) ? Math.max(0, Math.round(d.durationMs)) : 0,
    errorCode: d.errorCode === null ? null : typeof d.errorCode === 'string' && ERROR_CODE.test(d.errorCode) ? d.errorCode : REDACTED,
  };
}
