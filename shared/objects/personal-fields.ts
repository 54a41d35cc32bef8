import type { FieldDef } from './definitions';

/**
 * Which values of a custom-object record are personal data of the member it references: the
 * fields the workspace marked `personal: true`, every e-mail field, and any text field whose value looks
 * like an e-mail address or a phone number (the platform recognises those itself, so a field the
 * workspace forgot to mark is still caught). Member references are kept: they hold the
 * pseudonymous member id, which erasure leaves in place. Pure: no I/O.
 */

/** An e-mail address anywhere in the text (`jane@example.com`, `Contact: jane@example.com`). */
const EMAIL = /[^\s@<>()[\],;:"]+@[^\s@<>()[\],;:"]+\.[a-z]{2,}/i;

/**
 * A phone number: the whole value (7-15 digits with the usual separators, an optional leading +),
 * or an international number (`+` then 7-15 digits) inside a text. A bare digit run inside a text
 * (an order number, a year) does not count.
 */
const PHONE_WHOLE = /^\+?[0-9(][0-9 ()./-]{5,22}[0-9]$/;
const PHONE_INSIDE = /(^|[^\w+])\+[0-9][0-9 ()./-]{5,22}[0-9]/;
/** Dates (`2026-11-27`, `27.11.2026`) have the shape of a phone number but are not one. */
const DATE = /^(\d{4}[-./]\d{1,2}[-./]\d{1,2}|\d{1,2}[-./]\d{1,2}[-./]\d{4})$/;
const digitCount = (s: string) => s.replace(/\D/g, '').length;
const phoneLength = (s: string) => digitCount(s) >= 7 && digitCount(s) <= 15;

export function looksPersonal(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const text = value.trim();
  if (EMAIL.test(text)) return true;
  if (PHONE_WHOLE.test(text) && phoneLength(text) && !DATE.test(text)) return true;
  const inside = PHONE_INSIDE.exec(text);
  return inside !== null && phoneLength(inside[0]);
}

/** Whether one field of a record holds personal data (a value the field holds: see `personalFieldsOf`). */
const isPersonal = (f: FieldDef, value: unknown) => f.personal === true || f.type === 'email' || (f.type === 'text' && looksPersonal(value));

/** The keys of the record's personal values, in field order (only fields that hold a value). */
export function personalFieldsOf(fields: readonly FieldDef[], data: Record<string, unknown>): string[] {
  return fields.filter((f) => f.type !== 'member_ref' && data[f.key] !== undefined && data[f.key] !== null && isPersonal(f, data[f.key])).map((f) => f.key);
}
