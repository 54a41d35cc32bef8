import { config } from '../platform/config';
import type { AuditAction, AuditEntry, AuditTargetType } from './entities';
import { idTimePrefix } from '../platform/ids';
import { indexKeysOf, indexPartition, keyOf } from '../platform/data/keys';
import { putItem, type Item } from '../platform/data/items';
import { filterExpression, indexPage, type Page } from '../platform/data/queries';
import type { TransactStep } from '../platform/data/transactions';

/**
 * The audit trail: one item per entry, written once (the put is conditional on the key being new)
 * and never updated; the table's TTL removes it `config.audit.retentionDays` after it happened.
 */

const ENTRY_PREFIX = 'aud';
const DAY_SECONDS = 24 * 3600;

const actorIdOf = (e: AuditEntry): string | undefined => ('id' in e.actor ? e.actor.id : undefined);

function auditItem(workspaceId: string, e: AuditEntry): Item {
  const actorId = actorIdOf(e);
  // gsi2 (per actor) only for actors with an id: a sparse index, like the per-brand product index.
  const { gsi2pk, gsi2sk, ...always } = indexKeysOf('auditEntry', { workspaceId, entryId: e.id, actorId: actorId ?? '-', action: e.action });
  return {
    ...keyOf('auditEntry', { workspaceId, day: e.occurredAt.slice(0, 10), entryId: e.id }),
    ...always,
    ...(actorId !== undefined ? { gsi2pk, gsi2sk } : {}),
    entity: 'auditEntry',
    workspaceId,
    ...e,
    expiresAt: Math.floor(Date.parse(e.occurredAt) / 1000) + config.audit.retentionDays * DAY_SECONDS,
  };
}

const putOf = (workspaceId: string, e: AuditEntry) => ({ Item: auditItem(workspaceId, e), ConditionExpression: 'attribute_not_exists(pk)' });

/** The entry as one more item of the transaction that makes the change it records. */
export function auditStep(workspaceId: string, e: AuditEntry): TransactStep {
  return { op: { Put: putOf(workspaceId, e) } };
}

/** An entry on its own, for what has no transaction of its own (a refused login). */
export async function appendAuditEntry(workspaceId: string, e: AuditEntry): Promise<void> {
  await putItem(putOf(workspaceId, e));
}

export interface AuditFilters {
  action?: AuditAction;
  actorId?: string;
  /** occurredAt >= from */
  from?: Date;
  /** occurredAt < to */
  to?: Date;
  targetType?: AuditTargetType;
  targetId?: string;
}

/** Only the entry's own fields leave the table (never keys, TTL or anything added later). */
const toEntry = (i: Item): AuditEntry => ({
  id: i.id,
  occurredAt: i.occurredAt,
  action: i.action,
  outcome: i.outcome,
  reason: i.reason ?? null,
  actor: i.actor.type === 'anonymous' ? { type: 'anonymous' } : { type: i.actor.type, id: i.actor.id },
  target: { type: i.target.type, id: i.target.id },
  requestId: i.requestId,
  ...(i.mcp ? { mcp: { method: i.mcp.method, tool: i.mcp.tool ?? null, durationMs: i.mcp.durationMs, errorCode: i.mcp.errorCode ?? null } } : {}),
  ...(i.changes ? { changes: i.changes } : {}),
});

/**
 * Newest first. With an actor, that actor's index (narrowed by the action, if given, as a filter:
 * one actor's entries are few); else with an action, that action's index; else the whole trail.
 * A target narrows any of them as a filter (a page may then come back short, with its cursor).
 * A time window is a range of entry ids, so it narrows the key condition, never a filter.
 */
export async function listAuditEntries(workspaceId: string, filters: AuditFilters, limit: number, cursor?: string): Promise<Page<AuditEntry>> {
  const [gsi, partition] = filters.actorId
    ? (['gsi2', indexPartition('auditEntry', 'gsi2', { workspaceId, actorId: filters.actorId })] as const)
    : filters.action
      ? (['gsi3', indexPartition('auditEntry', 'gsi3', { workspaceId, action: filters.action })] as const)
      : (['gsi1', indexPartition('auditEntry', 'gsi1', { workspaceId })] as const);
  const filter = filterExpression([
    { attr: 'action', op: '=', value: filters.actorId ? filters.action : undefined },
    { attr: ['target', 'type'], op: '=', value: filters.targetType },
    { attr: ['target', 'id'], op: '=', value: filters.targetId },
  ]);
  const page = await indexPage<Item>(gsi, partition, {
    limit,
    cursor,
    filter,
    // The bare id prefix of an instant sorts before every id made at it: [from, to) in time.
    range: {
      from: filters.from && idTimePrefix(ENTRY_PREFIX, filters.from.getTime()),
      to: filters.to && idTimePrefix(ENTRY_PREFIX, filters.to.getTime()),
    },
  });
  return { ...page, items: page.items.map(toEntry) };
}
