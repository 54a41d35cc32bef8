import { parse as parseYaml } from 'yaml';
import { effectiveTitleField, putObjectTypeBody, typeKeySchema, type FieldDef, type ObjectTypeDefinition } from '../../shared/objects';
import { toDetails } from '../../shared/platform/validation/validation';
import { UsageError } from './errors';

/** A type as `GET /api/flash/objects/types` answers it (the parts a definition sets). */
export interface DefinedType {
  type: string;
  label: string;
  description: string | null;
  titleField: string | null;
  status: string;
  apiVisible: boolean;
  fields: { key: string; type: string; required: boolean; options?: string[]; label?: string }[];
}

export interface TypeChange {
  type: string;
  action: 'create' | 'update';
  /** One line per difference, e.g. `+ field serial (text, required)`. */
  changes: string[];
  definition: ObjectTypeDefinition;
}

/**
 * The definitions of a file: YAML or JSON (YAML reads both), holding `{ types: [...] }`, a list, or
 * one definition. Each is checked with the API's own body schema and worded as the API words it, so
 * the file is refused with every problem named before anything is sent, and compared in the form the
 * API stores.
 */
export function parseDefinitions(text: string, fileName: string): ObjectTypeDefinition[] {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (e) {
    throw new UsageError(`${fileName} is not valid YAML or JSON: ${(e as Error).message.split('\n')[0]}`);
  }
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  const items = Array.isArray(doc) ? doc : isObject(doc) && Array.isArray(doc.types) ? doc.types : isObject(doc) ? [doc] : undefined;
  if (!items?.length) throw new UsageError(`${fileName} defines no object types: give { types: [ { type, label, fields, status, apiVisible } ] }`);
  const problems: string[] = [];
  const seen = new Set<string>();
  const definitions = items.flatMap((item, i): ObjectTypeDefinition[] => {
    if (!isObject(item)) {
      problems.push(`types.${i}: must be an object`);
      return [];
    }
    const { type, ...rest } = item;
    const key = typeKeySchema.safeParse(type);
    if (!key.success) problems.push(`types.${i}.type: ${type === undefined ? 'required' : key.error.issues[0]!.message}`);
    else if (seen.has(key.data)) problems.push(`types.${i}.type: "${key.data}" is defined twice`);
    else seen.add(key.data);
    const body = putObjectTypeBody.safeParse(rest);
    if (!body.success) for (const d of toDetails('body', body.error)) problems.push(`types.${i}${d.field ? `.${d.field}` : ''}: ${d.message}`);
    return key.success && body.success ? [{ ...body.data, type: key.data }] : [];
  });
  if (problems.length) throw new UsageError(`${fileName} is not a valid definition:\n  ${problems.join('\n  ')}`);
  return definitions;
}

const fieldText = (f: DefinedType['fields'][number]) =>
  [f.type, f.required ? 'required' : 'optional', f.options ? `options ${f.options.join('|')}` : '', f.label ? `label "${f.label}"` : '']
    .filter(Boolean)
    .join(', ');

const show = (v: unknown) => (v === null || v === undefined ? 'none' : JSON.stringify(v));

function fieldChanges(was: DefinedType['fields'], want: FieldDef[]): string[] {
  const lines: string[] = [];
  const before = new Map(was.map((f) => [f.key, f]));
  const after = new Map(want.map((f) => [f.key, f]));
  for (const f of want) {
    const old = before.get(f.key);
    if (!old) lines.push(`+ field ${f.key} (${fieldText(f)})`);
    else if (fieldText(old) !== fieldText(f)) lines.push(`~ field ${f.key}: ${fieldText(old)} -> ${fieldText(f)}`);
  }
  for (const f of was) if (!after.has(f.key)) lines.push(`- field ${f.key} (${fieldText(f)})`);
  const order = (keys: string[]) => keys.filter((k) => before.has(k) && after.has(k)).join(',');
  if (order(was.map((f) => f.key)) !== order(want.map((f) => f.key))) lines.push(`~ field order: ${want.map((f) => f.key).join(', ')}`);
  return lines;
}

/** What applying `desired` would change; types already as desired are left out, types not in the file are untouched. */
export function planChanges(desired: readonly ObjectTypeDefinition[], current: readonly DefinedType[]): TypeChange[] {
  const byType = new Map(current.map((t) => [t.type, t]));
  return desired.flatMap((d): TypeChange[] => {
    const was = byType.get(d.type);
    const want = {
      label: d.label,
      description: d.description ?? null,
      titleField: effectiveTitleField(d.fields, d.titleField) ?? null,
      status: d.status,
      apiVisible: d.apiVisible,
    };
    if (!was)
      return [
        {
          type: d.type,
          action: 'create',
          definition: d,
          changes: [...Object.entries(want).map(([k, v]) => `+ ${k} ${show(v)}`), ...fieldChanges([], d.fields)],
        },
      ];
    const changes = [
      ...(Object.keys(want) as (keyof typeof want)[]).filter((k) => was[k] !== want[k]).map((k) => `~ ${k}: ${show(was[k])} -> ${show(want[k])}`),
      ...fieldChanges(was.fields, d.fields),
    ];
    return changes.length ? [{ type: d.type, action: 'update', definition: d, changes }] : [];
  });
}
