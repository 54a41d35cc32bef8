import * as z from 'zod';
import { ID_PATTERN } from '../platform/ids';
import { isStorableNumber, STORABLE_NUMBER_MESSAGE } from '../platform/validation/common';
import { effectiveTitleField, type FieldDef } from './definitions';

/**
 * Record data against a type's fields (spec 2.3, 4.1 write rule 1, 7). Pure: whether a
 * `member_ref` names a member of the workspace is the caller's check (it gets the ids in
 * `memberRefs`).
 *
 * Decisions:
 * - `text`: any string of at most 10,000 UTF-16 code units, the empty string included, stored as
 *   given (not trimmed). A required text field is satisfied by "" (required = present, non-null).
 * - `email`: trimmed and lower-cased, then checked (zod's e-mail check, at most 254 characters), and
 *   stored in that form, as member e-mails are. So `f_<key>=` filters match case-insensitively and
 *   a record may read back with a different case than written.
 * - `url`: stored exactly as given; must start with `http://` or `https://`, parse as a URL with a
 *   host, hold no whitespace or control characters, and be at most 2048 characters.
 * - `date` (`YYYY-MM-DD`) and `datetime` (RFC 3339: `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`,
 *   upper-case `T` and `Z`, seconds required) are stored as given, not normalised to UTC. Years
 *   0000-9999, proleptic Gregorian calendar; no leap seconds, no hour 24.
 * - `number`: a finite JSON number; numeric strings are refused. Its magnitude must fit DynamoDB's
 *   number type and exact (0, or 1e-130 to 2^53 - 1 in magnitude), or the write would fail in the store instead of here.
 */

export const MAX_TEXT_LENGTH = 10_000;
export const MAX_URL_LENGTH = 2048;
export const MAX_TITLE_KEY_LENGTH = 200;

export type ValidationMode = 'full' | 'patch';

export interface RecordIssue {
  /** The offending key inside `data`; '' for `data` itself. */
  field: string;
  message: string;
}

export interface RecordValidation {
  /** At most one per key. */
  issues: RecordIssue[];
  /**
   * The accepted values, normalised (e-mails). `full`: nulls dropped. `patch`: a null means
   * "remove this field". Keys with an issue are left out.
   */
  value: Record<string, unknown>;
  /** Distinct member ids the value points at, to check against the workspace. */
  memberRefs: string[];
}

type Check = { ok: true; value: unknown } | { ok: false; message: string };

const MEMBER_ID = ID_PATTERN('mbr');
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-](\d{2}):(\d{2}))$/;
const EMAIL = z.email().max(254);
const WHITESPACE_OR_CONTROL = /[\s\u0000-\u001f\u007f]/;

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const daysIn = (y: number, m: number) => [31, isLeap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1] ?? 0;
/** A month outside 1-12 has no days, so no day of it is real. */
const realDate = (y: number, m: number, d: number) => d >= 1 && d <= daysIn(y, m);

const DATE_MESSAGE = 'must be a date YYYY-MM-DD';
const DATETIME_MESSAGE = 'must be an ISO 8601 date-time with Z or an offset, e.g. 2026-01-02T03:04:05Z';

function optionsList(options: readonly string[]): string {
  const shown = options.slice(0, 20).join(', ');
  return options.length > 20 ? `${shown}, ... (${options.length - 20} more)` : shown;
}

/** One value of a field, non-null: accepted (and normalised) or refused with a message. */
export function checkValue(field: Pick<FieldDef, 'type' | 'options'>, v: unknown): Check {
  switch (field.type) {
    case 'text':
      if (typeof v !== 'string') return { ok: false, message: 'must be a string' };
      if (v.length > MAX_TEXT_LENGTH) return { ok: false, message: `must be at most ${MAX_TEXT_LENGTH} characters` };
      return { ok: true, value: v };
    case 'number': {
      if (typeof v !== 'number' || !Number.isFinite(v)) return { ok: false, message: 'must be a number' };
      return isStorableNumber(v) ? { ok: true, value: v } : { ok: false, message: STORABLE_NUMBER_MESSAGE };
    }
    case 'boolean':
      return typeof v === 'boolean' ? { ok: true, value: v } : { ok: false, message: 'must be true or false' };
    case 'date': {
      const m = typeof v === 'string' ? DATE.exec(v) : null;
      if (!m) return { ok: false, message: DATE_MESSAGE };
      if (!realDate(Number(m[1]), Number(m[2]), Number(m[3]))) return { ok: false, message: `${DATE_MESSAGE} (a real calendar date)` };
      return { ok: true, value: v };
    }
    case 'datetime': {
      const m = typeof v === 'string' ? DATETIME.exec(v) : null;
      if (!m) return { ok: false, message: DATETIME_MESSAGE };
      const [, y, mo, d, h, mi, s, , , oh, om] = m;
      const real =
        realDate(Number(y), Number(mo), Number(d)) &&
        Number(h) <= 23 &&
        Number(mi) <= 59 &&
        Number(s) <= 59 &&
        (oh === undefined || (Number(oh) <= 23 && Number(om) <= 59));
      return real ? { ok: true, value: v } : { ok: false, message: `${DATETIME_MESSAGE} (a real date and time)` };
    }
    case 'enum': {
      const options = field.options ?? [];
      return typeof v === 'string' && options.includes(v) ? { ok: true, value: v } : { ok: false, message: `must be one of: ${optionsList(options)}` };
    }
    case 'email': {
      if (typeof v !== 'string') return { ok: false, message: 'must be a valid e-mail address' };
      const normalised = v.trim().toLowerCase();
      return EMAIL.safeParse(normalised).success ? { ok: true, value: normalised } : { ok: false, message: 'must be a valid e-mail address' };
    }
    case 'url': {
      const message = 'must be an absolute http or https URL';
      if (typeof v !== 'string') return { ok: false, message };
      if (v.length > MAX_URL_LENGTH) return { ok: false, message: `must be at most ${MAX_URL_LENGTH} characters` };
      if (!/^https?:\/\//i.test(v) || WHITESPACE_OR_CONTROL.test(v)) return { ok: false, message };
      // The prefix fixes the protocol, and the parser refuses an http(s) URL without a host.
      return URL.canParse(v) ? { ok: true, value: v } : { ok: false, message };
    }
    case 'member_ref':
      return typeof v === 'string' && MEMBER_ID.test(v)
        ? { ok: true, value: v }
        : { ok: false, message: 'must be a member id (mbr_ followed by 26 characters)' };
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * Checks `data` against `fields`.
 * - `full` (create, or PATCH with `replace: true`): every required field present and non-null; a
 *   null optional field counts as absent and is dropped from `value`.
 * - `patch`: only the given keys; null removes a field, allowed for optional fields only, and stays
 *   in `value` so the caller knows what to REMOVE.
 * Unknown keys are refused one by one. Exactly one issue per offending key.
 */
export function validateRecordData(fields: readonly FieldDef[], data: unknown, mode: ValidationMode): RecordValidation {
  if (!isPlainObject(data)) return { issues: [{ field: '', message: 'must be an object' }], value: {}, memberRefs: [] };
  const byKey = new Map(fields.map((f) => [f.key, f]));
  const issues: RecordIssue[] = [];
  const value: Record<string, unknown> = {};
  const memberRefs = new Set<string>();

  for (const key of Object.keys(data)) {
    const field = byKey.get(key);
    if (!field) {
      issues.push({ field: key, message: 'unknown field' });
      continue;
    }
    const v = data[key];
    if (v === null || v === undefined) {
      if (field.required) issues.push({ field: key, message: mode === 'patch' ? 'required fields cannot be removed' : 'required' });
      // A key whose value is undefined only comes from code, never from JSON: treated as absent.
      else if (mode === 'patch' && v === null) value[key] = null;
      continue;
    }
    const checked = checkValue(field, v);
    if (!checked.ok) {
      issues.push({ field: key, message: checked.message });
      continue;
    }
    value[key] = checked.value;
    if (field.type === 'member_ref') memberRefs.add(checked.value as string);
  }

  if (mode === 'full') {
    for (const f of fields) {
      if (f.required && !Object.hasOwn(data, f.key)) issues.push({ field: f.key, message: 'required' });
    }
  }
  return { issues, value, memberRefs: [...memberRefs] };
}

/**
 * Sort key of a record in the title index (`title_asc`), case-insensitive:
 * - titled: `1#` + the title NFKC-normalised, lower-cased (and normalised again: lower-casing can
 *   decompose, e.g. "J̌" -> "ǰ"), trimmed, control characters removed,
 *   cut to 200 code points, then `\u0001`. The terminator sorts below every kept character, so a
 *   title sorts before its extensions ("ann" < "ann smith") even when the caller appends
 *   `#<recordId>`, whose `#` would otherwise sort after the space.
 * - untitled (no title field, the value absent, or blank after trimming): `2#`, after every titled one.
 * Keys compare by code point (DynamoDB compares the UTF-8 bytes, which is the same order).
 */
export function titleKeyOf(fields: readonly FieldDef[], titleField: string | null | undefined, data: Record<string, unknown>): string {
  const key = effectiveTitleField(fields, titleField);
  const raw = key === undefined || !Object.hasOwn(data, key) ? undefined : data[key];
  if (typeof raw !== 'string') return '2#';
  // Lower-casing alone is not case folding: the final sigma (also what the lunate sigma normalises
  // to) folds to σ, so a title sorts the same however it is cased.
  const text = raw
    .normalize('NFKC')
    .toLowerCase()
    .normalize('NFKC')
    .replace(/ς/g, 'σ')
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim();
  if (text === '') return '2#';
  return `1#${[...text].slice(0, MAX_TITLE_KEY_LENGTH).join('')}\u0001`;
}

/**
 * The stored value an equality filter `f_<key>=<raw>` (raw already URL-decoded) matches: a number
 * for number fields (JSON number syntax), `true`/`false` for booleans, the e-mail normalised as
 * stored, the exact string for the other types. A value no record could hold (a malformed date, an
 * enum value outside the options, ...) is refused with the same message a write would get.
 */
export function encodeFilterValue(field: FieldDef, raw: string): { ok: true; value: unknown } | { ok: false; message: string } {
  switch (field.type) {
    case 'number': {
      if (!/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(raw)) return { ok: false, message: 'must be a number' };
      return checkValue(field, Number(raw));
    }
    case 'boolean':
      return raw === 'true' ? { ok: true, value: true } : raw === 'false' ? { ok: true, value: false } : { ok: false, message: 'must be true or false' };
    default:
      return checkValue(field, raw);
  }
}
