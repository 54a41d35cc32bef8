/**
 * The rows of an import file: pure. A file is CSV (RFC 4180, a header row naming the fields, one
 * record per line) or JSON Lines (one object per line); blank lines are skipped. Each row is checked
 * on its own and answers either what it says, typed, or every field it gets wrong, with its line
 * (1 = the first line of the file). Nothing here reads the store: whether a member exists is the
 * preview's question.
 */
import type * as z from 'zod';
import { type BulkRowKind, type Check, errorsOf, fail, parsePoints, type TagsSchema } from './checks';
import type { BulkKind, ImportFormat, ImportKind, RowError } from './entities';
import { type PointsChange, pointsRows } from './points-rows';
import { type TagChange, tagsRows } from './tags-rows';
import { ID_PATTERN } from '../platform/ids';

/** Who a row is about: the member's id in the merchant's system, else the e-mail (a bulk row may give the platform's id first). */
export type MemberRef = { memberId: string } | { externalId: string } | { email: string };

export interface MemberRow {
  kind: 'members';
  /** The profile as the members API takes it (createMemberBody). */
  profile: Record<string, unknown>;
  tags: string[];
}
export interface BalanceRow {
  kind: 'balances';
  member: MemberRef;
  points: number;
  earnedAt: number;
  expiresAt: number | null;
}
export interface TierRow {
  kind: 'tiers';
  member: MemberRef;
  tier: string;
  qualifiedAt: number;
  retainedUntil: number;
}
/** A bulk row: one member's change, of the kind's own shape (points-rows.ts, tags-rows.ts). */
export type BulkRow = { kind: 'points'; member: MemberRef; change: PointsChange } | { kind: 'tags'; member: MemberRef; change: TagChange };
export type ImportRow = MemberRow | BalanceRow | TierRow | BulkRow;

/** Each bulk kind's rows, pure: the one place a kind's fields are read. */
export const BULK_ROWS: { [K in BulkKind]: BulkRowKind<Extract<BulkRow, { kind: K }>['change']> } = { points: pointsRows, tags: tagsRows };

export type CheckedRow = { line: number; row: ImportRow } | { line: number; errors: RowError[] };

/** What checking a row needs beyond the row: the time, the program's tier keys and the members API's shapes. */
export interface RowContext {
  now: number;
  tierKeys: readonly string[];
  /** createMemberBody and the tag list's schema of the members and tags areas. */
  profileSchema: z.ZodType;
  tagsSchema: z.ZodType & TagsSchema;
}

/** Splits one CSV record (no line breaks inside quotes). Null: an unterminated quote. */
export function splitCsv(line: string): string[] | null {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"' && cell === '') quoted = true;
    else if (c === ',') {
      cells.push(cell);
      cell = '';
    } else cell += c;
  }
  if (quoted) return null;
  cells.push(cell);
  return cells;
}

/** A parsed record by field name, or what is wrong with the line as a whole. */
export type RawRecord = { line: number; fields: Record<string, unknown> } | { line: number; errors: RowError[] };

/**
 * The records of a file, line by line (`header` is the CSV header's fields, read from its first
 * non-blank line). Each line's number is its position in the file.
 */
export function recordOf(format: ImportFormat, text: string, line: number, header: readonly string[]): RawRecord {
  if (format === 'jsonl') {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return { line, errors: [{ line, field: '(line)', message: 'is not valid JSON' }] };
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return { line, errors: [{ line, field: '(line)', message: 'must be a JSON object' }] };
    return { line, fields: value as Record<string, unknown> };
  }
  // A CRLF file's CR ends the last cell, which is trimmed like every other.
  const cells = splitCsv(text);
  if (!cells) return { line, errors: [{ line, field: '(line)', message: 'has a quote that is not closed' }] };
  if (cells.length !== header.length)
    return { line, errors: [{ line, field: '(line)', message: `has ${cells.length} fields; the header has ${header.length}` }] };
  const fields: Record<string, unknown> = {};
  header.forEach((name, i) => {
    const cell = cells[i]!.trim();
    if (cell !== '') fields[name] = cell;
  });
  return { line, fields };
}

/** A date (YYYY-MM-DD, midnight UTC) or an ISO date-time with its offset; null when it is neither. */
export function parseTime(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const date = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const dateTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(value);
  if (!date && !dateTime) return null;
  const ms = Date.parse(date ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(ms)) return null;
  // Date.parse rolls 2025-02-30 over to March: a date must read back as itself.
  return new Date(ms).toISOString().slice(0, 10) === value.slice(0, 10) || dateTime ? ms : null;
}

export { parsePoints } from './checks';

function memberRef(f: Record<string, unknown>): Check<MemberRef> {
  if (typeof f.externalId === 'string' && f.externalId !== '') return { value: { externalId: f.externalId } };
  if (typeof f.email === 'string' && f.email !== '') return { value: { email: f.email.trim().toLowerCase() } };
  return fail('externalId', 'give externalId or email of the member');
}

const MEMBER_ID = ID_PATTERN('mbr');

/** A bulk row's member: the platform's id first, then as a balance row names one. */
function bulkMemberRef(f: Record<string, unknown>): Check<MemberRef> {
  if (f.memberId !== undefined && f.memberId !== '')
    return typeof f.memberId === 'string' && MEMBER_ID.test(f.memberId)
      ? { value: { memberId: f.memberId } }
      : fail('memberId', 'is not a member id (mbr_...)');
  const ref = memberRef(f);
  return 'error' in ref ? fail('memberId', 'give memberId, externalId or email of the member') : ref;
}

const MEMBER_FIELDS = ['memberId', 'externalId', 'email'];

/** A points or tags row: its member and the kind's change; a field neither names is refused. */
function bulkRow(kind: BulkKind, line: number, f: Record<string, unknown>, ctx: RowContext): CheckedRow {
  const rows = BULK_ROWS[kind] as BulkRowKind<BulkRow['change']>;
  const member = bulkMemberRef(f);
  const change = rows.change(f, ctx.tagsSchema);
  const unknown = Object.keys(f).filter((k) => !MEMBER_FIELDS.includes(k) && !rows.fields.includes(k));
  const errors = [
    ...errorsOf(line, [member]),
    ...('errors' in change ? change.errors.map((e) => ({ line, ...e })) : []),
    ...unknown.map((field) => ({ line, field, message: `is not a field of a ${kind} row` })),
  ];
  if (errors.length > 0 || 'errors' in change) return { line, errors };
  return { line, row: { kind, member: (member as { value: MemberRef }).value, change: change.value } as BulkRow };
}

function time(f: Record<string, unknown>, field: string): Check<number> {
  if (f[field] === undefined || f[field] === null) return fail(field, 'is required');
  const t = parseTime(f[field]);
  return t === null ? fail(field, 'must be a date (YYYY-MM-DD) or an ISO date-time with offset') : { value: t };
}

function balanceRow(line: number, f: Record<string, unknown>, ctx: RowContext): CheckedRow {
  const member = memberRef(f);
  const raw = parsePoints(f.points);
  const points: Check<number> = raw === null ? fail('points', 'must be a whole number') : raw <= 0 ? fail('points', 'must be more than 0') : { value: raw };
  const earnedAt = time(f, 'earnedAt');
  let expiresAt: Check<number | null> = { value: null };
  if (f.expiresAt !== undefined && f.expiresAt !== null) {
    const t = time(f, 'expiresAt');
    if ('error' in t) expiresAt = t;
    else if (t.value <= ctx.now) expiresAt = fail('expiresAt', 'is in the past: expired points are not imported');
    else if ('value' in earnedAt && t.value <= earnedAt.value) expiresAt = fail('expiresAt', 'must be after earnedAt');
    else expiresAt = t;
  }
  const earnedInFuture = 'value' in earnedAt && earnedAt.value > ctx.now ? fail('earnedAt', 'is in the future') : { value: 0 };
  const errors = errorsOf(line, [member, points, earnedAt, earnedInFuture, expiresAt]);
  if (errors.length > 0) return { line, errors };
  const v = <T>(c: Check<T>) => (c as { value: T }).value;
  return { line, row: { kind: 'balances', member: v(member), points: v(points), earnedAt: v(earnedAt), expiresAt: v(expiresAt) } };
}

function tierRow(line: number, f: Record<string, unknown>, ctx: RowContext): CheckedRow {
  const member = memberRef(f);
  const tier: Check<string> =
    typeof f.tier !== 'string' || f.tier === ''
      ? fail('tier', 'is required')
      : ctx.tierKeys.includes(f.tier)
        ? { value: f.tier }
        : fail('tier', `is not a tier of the program (${ctx.tierKeys.join(', ')})`);
  const qualifiedAt = time(f, 'qualifiedAt');
  let retainedUntil = time(f, 'retainedUntil');
  if ('value' in retainedUntil && 'value' in qualifiedAt && retainedUntil.value < qualifiedAt.value)
    retainedUntil = fail('retainedUntil', 'must not be before qualifiedAt');
  const qualifiedLater = 'value' in qualifiedAt && qualifiedAt.value > ctx.now ? fail('qualifiedAt', 'is in the future') : { value: 0 };
  const errors = errorsOf(line, [member, tier, qualifiedAt, qualifiedLater, retainedUntil]);
  if (errors.length > 0) return { line, errors };
  const v = <T>(c: Check<T>) => (c as { value: T }).value;
  return { line, row: { kind: 'tiers', member: v(member), tier: v(tier), qualifiedAt: v(qualifiedAt), retainedUntil: v(retainedUntil) } };
}

const PROFILE_FIELDS = ['email', 'externalId', 'firstName', 'lastName', 'phone', 'birthDate'] as const;
/** CSV: a custom attribute is a column `attr.<key>`; tags one column, separated by `;`. */
const ATTRIBUTE_COLUMN = 'attr.';

function zodErrors(line: number, error: z.ZodError, prefix = ''): RowError[] {
  return error.issues.map((i) => ({ line, field: prefix + (i.path.length ? i.path.join('.') : '(row)'), message: i.message }));
}

function memberRow(line: number, f: Record<string, unknown>, ctx: RowContext): CheckedRow {
  const profile: Record<string, unknown> = {};
  for (const k of PROFILE_FIELDS) if (f[k] !== undefined) profile[k] = f[k];
  const attributes: Record<string, unknown> = typeof f.customAttributes === 'object' && f.customAttributes !== null ? { ...f.customAttributes } : {};
  for (const [k, v] of Object.entries(f)) if (k.startsWith(ATTRIBUTE_COLUMN)) attributes[k.slice(ATTRIBUTE_COLUMN.length)] = v;
  if (Object.keys(attributes).length > 0) profile.customAttributes = attributes;
  const tags = Array.isArray(f.tags)
    ? f.tags
    : typeof f.tags === 'string'
      ? f.tags
          .split(';')
          .map((t) => t.trim())
          .filter((t) => t !== '')
      : [];
  const unknown = Object.keys(f).filter(
    (k) => !(PROFILE_FIELDS as readonly string[]).includes(k) && k !== 'tags' && k !== 'customAttributes' && !k.startsWith(ATTRIBUTE_COLUMN),
  );
  const parsed = ctx.profileSchema.safeParse(profile);
  const tagsParsed = tags.length > 0 ? ctx.tagsSchema.safeParse({ tags }) : null;
  const errors = [
    ...unknown.map((field) => ({ line, field, message: 'is not a member field' })),
    ...(parsed.success ? [] : zodErrors(line, parsed.error)),
    ...(tagsParsed && !tagsParsed.success ? zodErrors(line, tagsParsed.error) : []),
  ];
  if (errors.length > 0) return { line, errors };
  return { line, row: { kind: 'members', profile: parsed.data as Record<string, unknown>, tags } };
}

/** One record checked as a row of `kind`. */
export function checkRow(kind: ImportKind, record: RawRecord, ctx: RowContext): CheckedRow {
  if ('errors' in record) return record;
  switch (kind) {
    case 'members':
      return memberRow(record.line, record.fields, ctx);
    case 'balances':
      return balanceRow(record.line, record.fields, ctx);
    case 'tiers':
      return tierRow(record.line, record.fields, ctx);
    default:
      return bulkRow(kind, record.line, record.fields, ctx);
  }
}

/** The fields a CSV header names (trimmed; a byte order mark dropped). */
export function headerOf(text: string): string[] | null {
  const cells = splitCsv(text.replace(/^\uFEFF/, '').replace(/\r$/, ''));
  return cells ? cells.map((c) => c.trim()) : null;
}

/** `YYYY-MM` (UTC) of an expiry, `never` without one: how a preview groups points. */
export const expiryMonth = (expiresAt: number | null): string => (expiresAt === null ? 'never' : new Date(expiresAt).toISOString().slice(0, 7));
