import * as repo from './repository';
import type { TransactStep } from '../platform/data/transactions';
import { logger } from '../platform/observability/logger';
import { emitMetric } from '../platform/observability/metrics';
import type { AuditAction, AuditActor, AuditChange, AuditEntry, AuditFailureReason, AuditTarget } from './entities';
import { auditEntry, type AuditInput } from './entry';
import type { AuditQueryFilters, ListAuditQuery } from './schemas';
import { actorIdsOf, readable, type ActorDirectory, type ReadableEntry } from './readable';
import { auditCsv } from './csv';
import { config } from '../platform/config';
import { MAX_PAGE_SIZE } from '../platform/validation/pagination';

/** Who is acting and in which request: what a service needs to record its change. */
export interface AuditContext {
  actor: AuditActor;
  requestId: string;
}

/**
 * The audit entry of a change as a step of the change's own transaction: the entry is written
 * exactly when the change commits, and a refused or failed change leaves none.
 */
export function audited(workspaceId: string, ctx: AuditContext, action: AuditAction, target: AuditTarget, now: Date, changes?: AuditChange[]): TransactStep {
  const entry = auditEntry({ action, actor: ctx.actor, target, requestId: ctx.requestId, ...(changes ? { changes } : {}) }, now);
  return { ...repo.auditStep(workspaceId, entry), onCommitted: countAuditWrite };
}

/** Counted once the entry is stored: with its transaction's commit, or after its own write. */
const countAuditWrite = () => emitMetric('auditWrites', 1);

/**
 * A refused attempt that changes nothing (a failed login), written on its own. Best effort: a
 * failure to write it is logged, never turned into the request's answer.
 */
export async function recordRefusal(
  workspaceId: string,
  input: { action: AuditAction; actor: AuditActor; target: AuditTarget; requestId: string; reason: AuditFailureReason },
  now: Date,
): Promise<void> {
  try {
    await repo.appendAuditEntry(workspaceId, auditEntry(input, now));
    countAuditWrite();
  } catch (error) {
    logger.error('audit entry not written', { requestId: input.requestId, workspaceId, action: input.action, error: error as Error });
  }
}

/**
 * A request that changes nothing but is recorded (an export request answered with the job under
 * way, a download link, a personal-data export), written on its own. `required`: the request fails
 * if the entry cannot be written (nothing leaves unrecorded); otherwise the failure is logged.
 */
export async function recordAccess(
  workspaceId: string,
  ctx: AuditContext,
  action: AuditAction,
  target: AuditTarget,
  now: Date,
  opts: { required?: boolean } = {},
): Promise<void> {
  try {
    await repo.appendAuditEntry(workspaceId, auditEntry({ action, actor: ctx.actor, target, requestId: ctx.requestId }, now));
    countAuditWrite();
  } catch (error) {
    if (opts.required) throw error;
    logger.error('audit entry not written', { requestId: ctx.requestId, workspaceId, action, error: error as Error });
  }
}

const filtersOf = (query: AuditQueryFilters): repo.AuditFilters => ({
  action: query.action,
  actorId: query.actor,
  targetType: query.targetType,
  targetId: query.targetId,
  from: query.from !== undefined ? new Date(query.from) : undefined,
  to: query.to !== undefined ? new Date(query.to) : undefined,
});

/** Entries as people read them: each actor named through `directory`, each target with its console address. */
async function readableEntries(workspaceId: string, entries: AuditEntry[], directory: ActorDirectory): Promise<ReadableEntry[]> {
  const names = await directory(workspaceId, actorIdsOf(entries));
  return entries.map((e) => readable(e, names));
}

export async function listAuditEntries(
  workspaceId: string,
  query: ListAuditQuery,
  directory: ActorDirectory,
): Promise<{ items: ReadableEntry[]; nextCursor: string | null }> {
  const page = await repo.listAuditEntries(workspaceId, filtersOf(query), query.limit, query.cursor);
  return { items: await readableEntries(workspaceId, page.items, directory), nextCursor: page.nextCursor ?? null };
}

/**
 * The filtered trail as CSV, newest first, at most `config.audit.csvMaxRows` entries (the newest;
 * `truncated` says more may match: narrow the period for the rest).
 */
export async function auditCsvOf(workspaceId: string, query: AuditQueryFilters, directory: ActorDirectory): Promise<{ csv: string; truncated: boolean }> {
  const max = config.audit.csvMaxRows;
  const entries: AuditEntry[] = [];
  let cursor: string | undefined;
  do {
    const page = await repo.listAuditEntries(workspaceId, filtersOf(query), MAX_PAGE_SIZE, cursor);
    entries.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor && entries.length < max);
  const truncated = entries.length > max || cursor !== undefined;
  return { csv: auditCsv(await readableEntries(workspaceId, entries.slice(0, max), directory)), truncated };
}

/**
 * An entry that belongs to no transaction of its own (an MCP call, audited at the transport), written
 * on its own. Best effort like a refusal: a failure to write it is logged, never the answer.
 */
export async function recordCall(workspaceId: string, input: AuditInput, now: Date): Promise<void> {
  try {
    await repo.appendAuditEntry(workspaceId, auditEntry(input, now));
    countAuditWrite();
  } catch (error) {
    logger.error('audit entry not written', { requestId: input.requestId, workspaceId, action: input.action, error: error as Error });
  }
}
