/** A field's check, pure: its value, or what is wrong with it by field. */
export type Check<T> = { value: T } | { error: { field: string; message: string } };

export const fail = (field: string, message: string): Check<never> => ({ error: { field, message } });

/** The errors among `checks`, each with the row's line. */
export const errorsOf = (line: number, checks: Check<unknown>[]): { line: number; field: string; message: string }[] =>
  checks.flatMap((c) => ('error' in c ? [{ line, ...c.error }] : []));

/** The value of a check known to have passed. */
export const passed = <T>(c: Check<T>): T => (c as { value: T }).value;

/** A change, or every field it gets wrong. */
export type Checked<C> = { value: C } | { errors: { field: string; message: string }[] };

/** The tag list's schema of the tags area (a row's tag is checked as a one-tag list). */
export type TagsSchema = { safeParse(v: unknown): { success: boolean } };

/** All checks passed: their values; else their errors. */
export function combined<T extends readonly Check<unknown>[], C>(
  checks: T,
  build: (values: { [K in keyof T]: T[K] extends Check<infer V> ? V : never }) => C,
): Checked<C> {
  const errors = checks.flatMap((c) => ('error' in c ? [c.error] : []));
  if (errors.length > 0) return { errors };
  return { value: build(checks.map(passed) as { [K in keyof T]: T[K] extends Check<infer V> ? V : never }) };
}

/** A whole number of points: a JSON number or a CSV cell of digits. */
export function parsePoints(value: unknown): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : Number.NaN;
  return Number.isSafeInteger(n) ? n : null;
}

/** What a bulk row adds to a preview's totals. */
export interface BulkTotals {
  points: number;
  pointsRemoved: number;
  tagged: number;
  untagged: number;
}

/**
 * The shape every bulk kind's rows share, pure: the fields it reads besides the member's, the
 * change a row's fields ask for (a filtered job's `change` is checked the same way), and what one
 * change adds to a preview's totals.
 */
export interface BulkRowKind<C> {
  fields: readonly string[];
  change(f: Record<string, unknown>, tagsSchema: TagsSchema): Checked<C>;
  count(change: C, totals: BulkTotals): void;
}
