import { csvLines } from '../platform/csv';
import type { ReadableEntry } from './readable';

/**
 * The trail as CSV, one row per entry as the list shows it: the actor named, the target with its
 * console address and a configuration change's fields as `field: before -> after` (JSON values),
 * one per line of the cell.
 */

export const AUDIT_CSV_COLUMNS = [
  'occurred_at',
  'action',
  'outcome',
  'reason',
  'actor_type',
  'actor_id',
  'actor_name',
  'actor_email',
  'actor_key_prefix',
  'target_type',
  'target_id',
  'target_address',
  'changes',
  'request_id',
] as const;

/** A side of a change as JSON, or `(none)` where the field was absent. */
const side = (value: unknown): string => (value === undefined ? '(none)' : JSON.stringify(value));

export const changesText = (changes: ReadableEntry['changes']): string | null =>
  changes ? changes.map((c) => `${c.field}: ${side(c.before)} -> ${side(c.after)}`).join('\n') : null;

function row(e: ReadableEntry): (string | null)[] {
  const { actor } = e;
  return [
    e.occurredAt,
    e.action,
    e.outcome,
    e.reason,
    actor.type,
    'id' in actor ? actor.id : null,
    'name' in actor ? actor.name : null,
    'email' in actor ? actor.email : null,
    'prefix' in actor ? actor.prefix : null,
    e.target.type,
    e.target.id,
    e.target.href,
    changesText(e.changes),
    e.requestId,
  ];
}

export const auditCsv = (entries: readonly ReadableEntry[]): string => csvLines([AUDIT_CSV_COLUMNS, ...entries.map(row)]);
