import type * as z from 'zod';
import { TABLE_SCHEMA } from './table-schema';
import { ENTITIES, type EntityName, type GsiName, type IndexParams, indexKeysOf, type KeyParams, keyOf, type PrimaryKey } from './keys';

/** Sequence key parts (ledger entries, attempts) are part of a declaration's keys. */
export { seqKey } from './keys';

/**
 * One declaration per stored type: its name in the key registry (`keys.ts`, where its templates
 * are stored data), the zod schema of its record, and what the item adds around the record. From
 * it come the record type, the item a write puts (`toItem`) and the record a read returns
 * (`fromItem`), so no repository spreads keys in or strips them out by hand.
 *
 * The schema stays refinement-free: the API's shapes derive from it with `.omit()`, `.pick()` and
 * `.extend()`, which zod refuses on a refined object; refinements belong to the derived schema.
 */

const GSIS: readonly GsiName[] = ['gsi1', 'gsi2', 'gsi3'];
type RecordSchema = z.ZodObject<z.ZodRawShape>;

/** Every key part a layout names (primary and GSI). */
export type LayoutParams<N extends EntityName> = KeyParams<N> & IndexParams<N>;

export interface EntitySpec<N extends EntityName, S extends RecordSchema, C> {
  /** The layout in the key registry: the item's `entity` attribute is this name. */
  name: N;
  schema: S;
  /** The key parts of a record; `context` is what the record does not hold (its workspace). */
  keys: (record: z.infer<S>, context: C) => LayoutParams<N>;
  /** A GSI written only while its condition holds on the record (sparse indexes); the others always. */
  when?: Partial<Record<GsiName, (record: z.infer<S>) => boolean>>;
  /** Attributes the item keeps beside the record (its workspace, its version, its expiry), by name: written by `toItem`, dropped by `fromItem`. */
  beside?: Record<string, (record: z.infer<S>, context: C) => unknown>;
  /** Further layouts projecting the same item into more indexes (written by their own steps): `fromItem` drops their attributes too. */
  also?: readonly EntityName[];
}

export interface Entity<N extends EntityName, S extends RecordSchema, C> {
  readonly name: N;
  readonly schema: S;
  /** The attributes of an item that are not its record: keys, GSI keys, `entity` and what lies beside. */
  readonly keyAttributes: readonly string[];
  keyOf(record: z.infer<S>, context: C): PrimaryKey;
  /** The item a write puts: the record, its keys, the GSI keys whose condition holds, `entity` and what lies beside. */
  toItem(record: z.infer<S>, context: C): Record<string, unknown> & PrimaryKey;
  /** The record of a stored item: the item less its keys, GSI keys (of every layout named), `entity` and what lies beside. */
  fromItem(item: Record<string, unknown>): z.infer<S>;
  /** `fromItem` checked against the schema, nothing undeclared allowed: for tests and tools, not the hot path. */
  parse(item: Record<string, unknown>): z.infer<S>;
}

/** The attribute names a layout writes: `pk`, `sk` and its GSIs' `gsiNpk`/`gsiNsk`. */
export function layoutAttributes(name: EntityName): string[] {
  const layout = ENTITIES[name] as Partial<Record<GsiName, unknown>>;
  return ['pk', 'sk', ...GSIS.filter((g) => layout[g]).flatMap((g) => [`${g}pk`, `${g}sk`])];
}

const TABLE_KEYS = new Set(['pk', 'sk', 'entity', ...TABLE_SCHEMA.gsis.flatMap((g) => [g.partitionKey, g.sortKey])]);

/** An item of whatever type less every key attribute the table has (for reads across types: a member's partition). */
export function withoutKeys(item: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(item).filter(([attribute]) => !TABLE_KEYS.has(attribute)));
}

export function defineEntity<N extends EntityName, S extends RecordSchema, C = void>(spec: EntitySpec<N, S, C>): Entity<N, S, C> {
  const { name, schema, keys, when = {}, beside = {} } = spec;
  const keyAttributes = [...new Set([...[name, ...(spec.also ?? [])].flatMap(layoutAttributes), 'entity', ...Object.keys(beside)])];
  const dropped = new Set(keyAttributes);
  // Strict unless the declaration itself admits more (a campaign: the program area owns its definition).
  const checked = schema.def.catchall ? schema : schema.strict();
  const fromItem = (item: Record<string, unknown>) => {
    const out: Record<string, unknown> = {};
    for (const [attribute, value] of Object.entries(item)) if (!dropped.has(attribute)) out[attribute] = value;
    return out as z.infer<S>;
  };
  return {
    name,
    schema,
    keyAttributes,
    keyOf: (record, context) => keyOf(name, keys(record, context)),
    toItem(record, context) {
      const params = keys(record, context);
      const indexes = indexKeysOf(
        name,
        params,
        GSIS.filter((gsi) => when[gsi]?.(record) ?? true),
      );
      // An attribute beside the record without a value is left out (DynamoDB stores no undefined).
      const besides = Object.fromEntries(
        Object.entries(beside)
          .map(([attribute, value]) => [attribute, value(record, context)])
          .filter(([, value]) => value !== undefined),
      );
      return { ...keyOf(name, params), ...indexes, entity: name, ...besides, ...record };
    },
    fromItem,
    parse: (item) => checked.parse(fromItem(item)) as z.infer<S>,
  };
}
