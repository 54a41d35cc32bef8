/**
 * What a configuration change changed, field by field: pure. Objects are walked into, so a changed
 * earn rate is one line (`earn.pointsPerUnit: 1 -> 2`) and not the whole rules twice; an array is a
 * value of its own (a tier list, a campaign's audience), shown whole before and after when any of
 * it changed, since positions say little about what an edit meant. A key only one side has is
 * added (no `before`) or removed (no `after`). Bookkeeping fields (`version`, `updatedAt`) are left
 * out: every change moves them.
 */

import type { AuditChange } from './entities';

/** Fields every change moves, so naming them says nothing. */
const BOOKKEEPING: ReadonlySet<string> = new Set(['version', 'updatedAt', 'createdAt']);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Equal as JSON would be: same primitives, arrays item by item, objects key by key (undefined keys ignored). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = new Set([...definedKeys(a), ...definedKeys(b)]);
    return [...keys].every((k) => sameValue(a[k], b[k]));
  }
  return false;
}

const definedKeys = (o: Record<string, unknown>): string[] => Object.keys(o).filter((k) => o[k] !== undefined);

/** The changed fields from `before` to `after`, in the order their keys first appear (before's, then after's new ones). */
export function diffOf(before: object, after: object): AuditChange[] {
  const changes: AuditChange[] = [];
  walk(before as Record<string, unknown>, after as Record<string, unknown>, '', changes);
  return changes;
}

/**
 * A definition's change: only the fields the new definition has are compared, so what the stored
 * record keeps beside its definition (counters, remaining stock, its workspace) is never named.
 */
export function definitionDiff(current: object, definition: object): AuditChange[] {
  const stored = current as Record<string, unknown>;
  return diffOf(Object.fromEntries(Object.keys(definition).map((k) => [k, stored[k]])), definition);
}

function walk(before: Record<string, unknown>, after: Record<string, unknown>, prefix: string, out: AuditChange[]): void {
  const keys = [...new Set([...definedKeys(before), ...definedKeys(after)])];
  for (const key of keys) {
    if (prefix === '' && BOOKKEEPING.has(key)) continue;
    const field = prefix + key;
    const [b, a] = [before[key], after[key]];
    if (sameValue(b, a)) continue;
    if (isObject(b) && isObject(a)) walk(b, a, `${field}.`, out);
    else out.push({ field, ...(b !== undefined ? { before: b } : {}), ...(a !== undefined ? { after: a } : {}) });
  }
}
