import * as z from 'zod';
import { FIELD_TYPES, type FieldDefRecord, type FieldType } from './entities';
import type { SameShape } from '../platform/data/same-shape';

/**
 * Object type definitions: the schema a workspace gives its custom objects (spec 2.1, 2.2). Pure:
 * no I/O. The records themselves are checked by `validator.ts`.
 */

/** Field keys and type keys: a lower-case identifier of 1-63 characters. */
export const KEY_PATTERN = /^[a-z][a-z0-9_]{0,62}$/;

/** Field types whose values are strings that make a usable title (and so a `title_asc` order). */
export const TITLE_FIELD_TYPES = ['text', 'email', 'url', 'enum', 'date', 'datetime'] as const satisfies readonly FieldType[];

export const MAX_FIELDS = 100;
export const MAX_ENUM_OPTIONS = 100;
export const MAX_ENUM_OPTION_LENGTH = 200;

const keyMessage = 'must start with a-z and contain only a-z, 0-9 and _ (at most 63 characters)';

export const fieldKeySchema = z.string().regex(KEY_PATTERN, { message: keyMessage });
/** The `{type}` path parameter and `type` of a definition. */
export const typeKeySchema = z.string().regex(KEY_PATTERN, { message: keyMessage });

const labelSchema = z.string().trim().min(1, { message: 'must not be empty' }).max(100);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export const fieldDefSchema = z
  .strictObject({
    key: fieldKeySchema.describe('The key of the value in record data, e.g. plate'),
    type: z.enum(FIELD_TYPES, { message: `must be one of: ${FIELD_TYPES.join(', ')}` }).describe('The value type; enum fields list their options'),
    required: z.boolean().default(false),
    options: z
      .array(z.string().min(1, { message: 'must not be empty' }).max(MAX_ENUM_OPTION_LENGTH))
      .min(1, { message: 'must list at least one option' })
      .max(MAX_ENUM_OPTIONS)
      .optional(),
    label: labelSchema.optional(),
    personal: z
      .boolean()
      .optional()
      .describe(
        "true: the field holds personal data of the member the record references (a name, an address, a note about the person). The member's erasure clears it in every record that references the member, and the member's personal-data export lists it. E-mail fields, and text values that look like an e-mail address or a phone number, count as personal without the flag.",
      ),
  })
  // Runs even when another property failed, so every offending property is reported at once.
  .superRefine(
    (f, ctx) => {
      if (!isRecord(f)) return;
      const options = f.options;
      if (f.type === 'enum') {
        if (options === undefined) {
          ctx.addIssue({ code: 'custom', path: ['options'], message: 'required for enum fields (1-100 allowed values)' });
        } else if (Array.isArray(options)) {
          const seen = new Set<unknown>();
          for (const o of options) {
            if (seen.has(o)) {
              ctx.addIssue({ code: 'custom', path: ['options'], message: `lists "${String(o)}" twice` });
              break;
            }
            seen.add(o);
          }
        }
      } else if (options !== undefined && (FIELD_TYPES as readonly unknown[]).includes(f.type)) {
        ctx.addIssue({ code: 'custom', path: ['options'], message: 'only allowed for enum fields' });
      }
    },
    { when: () => true },
  );

export type FieldDef = z.output<typeof fieldDefSchema>;
// A type's fields are stored as validated.
true satisfies SameShape<FieldDef, FieldDefRecord>;
export type FieldDefInput = z.input<typeof fieldDefSchema>;

export const OBJECT_TYPE_STATUSES = ['draft', 'published'] as const;
export type ObjectTypeStatus = (typeof OBJECT_TYPE_STATUSES)[number];

/** Body of `PUT /api/flash/objects/types/{type}` (admin session): creates or replaces a type. */
export const putObjectTypeBody = z
  .strictObject({
    label: labelSchema.describe('Display name of the type, e.g. Vehicle'),
    fields: z.array(fieldDefSchema).min(1, { message: 'must define at least one field' }).max(MAX_FIELDS).describe('The fields of a record, in display order'),
    titleField: z
      .string()
      .max(64)
      .optional()
      .describe('Key of the field that titles a record and orders `title_asc`; default: the first required text field, else the first text field'),
    status: z.enum(OBJECT_TYPE_STATUSES).describe('Only published types with apiVisible are served under /api/v2/objects'),
    apiVisible: z.boolean().describe('Whether API keys see the type and its records'),
    description: z.string().trim().max(1000).optional(),
  })
  .superRefine(
    (body, ctx) => {
      if (!isRecord(body) || !Array.isArray(body.fields)) return;
      const fields = body.fields as unknown[];
      const firstIndex = new Map<string, number>();
      fields.forEach((f, i) => {
        if (!isRecord(f) || typeof f.key !== 'string') return;
        const first = firstIndex.get(f.key);
        if (first === undefined) firstIndex.set(f.key, i);
        else ctx.addIssue({ code: 'custom', path: ['fields', i, 'key'], message: `duplicate key "${f.key}" (also fields.${first}.key)` });
      });
      const title = body.titleField;
      if (typeof title !== 'string') return;
      const at = firstIndex.get(title);
      if (at === undefined) {
        ctx.addIssue({ code: 'custom', path: ['titleField'], message: `must be the key of one of the fields` });
        return;
      }
      const type = (fields[at] as Record<string, unknown>).type;
      if ((FIELD_TYPES as readonly unknown[]).includes(type) && !(TITLE_FIELD_TYPES as readonly unknown[]).includes(type)) {
        ctx.addIssue({
          code: 'custom',
          path: ['titleField'],
          message: `must be a field of type ${TITLE_FIELD_TYPES.join(', ')}; "${title}" is ${String(type)}`,
        });
      }
    },
    { when: () => true },
  );

export type PutObjectTypeInput = z.output<typeof putObjectTypeBody>;

/** A type as the domain sees it: the PUT body under its key. */
export type ObjectTypeDefinition = PutObjectTypeInput & { type: string };

/** The first required text field, else the first text field, else none. */
export function defaultTitleField(fields: readonly Pick<FieldDef, 'key' | 'type' | 'required'>[]): string | undefined {
  return (fields.find((f) => f.type === 'text' && f.required === true) ?? fields.find((f) => f.type === 'text'))?.key;
}

/** The field that titles records: the given one, else the default. */
export function effectiveTitleField(fields: readonly Pick<FieldDef, 'key' | 'type' | 'required'>[], titleField: string | null | undefined): string | undefined {
  return titleField ?? defaultTitleField(fields);
}

const quote = (s: string) => JSON.stringify(s);

/**
 * Why replacing `oldFields` by `newFields` could make an existing record invalid, or its title-index
 * entry wrong; empty when the change is safe for live records. Title fields are compared after
 * resolving the default (`defaultTitleField`), so an implicit title that moves (e.g. a text field
 * removed or reordered) counts too, and naming the default explicitly does not.
 *
 * Breaking: a field removed, a field's type changed, a field made required (an existing optional
 * one, or a new required one), enum options removed, the title field changed. Safe: labels and
 * descriptions, new optional fields, enum options added, required -> optional, status, apiVisible.
 */
export function breakingChanges(
  oldFields: readonly FieldDef[],
  newFields: readonly FieldDef[],
  oldTitleField: string | null | undefined,
  newTitleField: string | null | undefined,
): string[] {
  const reasons: string[] = [];
  const before = new Map(oldFields.map((f) => [f.key, f]));
  const after = new Map(newFields.map((f) => [f.key, f]));
  for (const old of oldFields) {
    const next = after.get(old.key);
    if (!next) {
      reasons.push(`field ${quote(old.key)} is removed`);
      continue;
    }
    if (next.type !== old.type) {
      reasons.push(`field ${quote(old.key)} changes type from ${old.type} to ${next.type}`);
      continue;
    }
    if (next.required && !old.required) reasons.push(`field ${quote(old.key)} becomes required`);
    if (old.type === 'enum') {
      const kept = new Set(next.options ?? []);
      const removed = (old.options ?? []).filter((o) => !kept.has(o));
      if (removed.length > 0) reasons.push(`enum field ${quote(old.key)} no longer allows: ${removed.map(quote).join(', ')}`);
    }
  }
  for (const f of newFields) {
    if (!before.has(f.key) && f.required) reasons.push(`new field ${quote(f.key)} is required`);
  }
  const oldTitle = effectiveTitleField(oldFields, oldTitleField);
  const newTitle = effectiveTitleField(newFields, newTitleField);
  if (oldTitle !== newTitle) {
    const show = (t: string | undefined) => (t === undefined ? 'none' : quote(t));
    reasons.push(`title field changes from ${show(oldTitle)} to ${show(newTitle)}`);
  }
  return reasons;
}
