import { TABLE_SCHEMA } from './table-schema';
import { type EntityName, type GsiName, type IndexParams, indexKeyAttributes, indexKeysOf, type KeyParams, keyOf, type PrimaryKey } from './keys';

/** Sequence key parts (ledger entries, attempts) are part of a declaration's keys. */
export { seqKey } from './keys';

/**
 * One declaration per stored type: its name in the key registry (`keys.ts`, where its templates
 * are stored data), the record it stores (the type of its keys function's first parameter: the
 * area's record schema, `z.infer`red), and what the item adds around the record. From it come the
 * item a write puts (`toItem`) and the record a read returns (`fromItem`), so no repository spreads
 * keys in or strips them out by hand.
 *
 * A declaration holds no zod schema at run time, only the record's type: a bundle that reads and
 * writes items carries no record schema, and one that only answers the API carries no key layout.
 * Declarations are written `/* @__PURE__ *\/ defineEntity(...)` for that reason: the bundler drops
 * those nothing imports (docs/decisions/0073-one-declaration-per-stored-type.md).
 */

/** Every key part a layout names (primary and GSI). */
export type LayoutParams<N extends EntityName> = KeyParams<N> & IndexParams<N>;

export interface EntitySpec<N extends EntityName, R extends object, C> {
  /** The layout in the key registry: the item's `entity` attribute is this name. */
  name: N;
  /** The key parts of a record (its type is the record's); `context` is what the record does not hold (its workspace). */
  keys: (record: R, context: C) => LayoutParams<N>;
  /** A GSI written only while its condition holds on the record (sparse indexes); the others always. */
  when?: Partial<Record<GsiName, (record: R) => boolean>>;
  /** Attributes the item keeps beside the record (its workspace, its version, its expiry), by name: written by `toItem`, dropped by `fromItem`. */
  beside?: Record<string, (record: R, context: C) => unknown>;
  /** Further layouts projecting the same item into more indexes (written by their own steps): `fromItem` drops their attributes too. */
  also?: readonly EntityName[];
}

export interface Entity<N extends EntityName, R extends object, C> {
  readonly name: N;
  /** The attributes of an item that are not its record: keys, GSI keys, `entity` and what lies beside. */
  readonly keyAttributes: readonly string[];
  keyOf(record: R, context: C): PrimaryKey;
  /** The item a write puts: the record, its keys, the GSI keys whose condition holds, `entity` and what lies beside. */
  toItem(record: R, context: C): Record<string, unknown> & PrimaryKey;
  /** The record of a stored item: the item less its keys, GSI keys (of every layout named), `entity` and what lies beside. */
  fromItem(item: Record<string, unknown>): R;
}

/** The attribute names a layout writes: `pk`, `sk` and its GSIs' `gsiNpk`/`gsiNsk`. */
export const layoutAttributes = (name: EntityName): string[] => ['pk', 'sk', ...indexKeyAttributes(name)];

/** An item of whatever type less every key attribute the table has (for reads across types: a member's partition). */
export function withoutKeys(item: Record<string, unknown>): Record<string, unknown> {
  const keys = new Set(['pk', 'sk', 'entity', ...TABLE_SCHEMA.gsis.flatMap((g) => [g.partitionKey, g.sortKey])]);
  return Object.fromEntries(Object.entries(item).filter(([attribute]) => !keys.has(attribute)));
}

export function defineEntity<N extends EntityName, R extends object, C = void>(spec: EntitySpec<N, R, C>): Entity<N, R, C> {
  const { name, keys, when = {}, beside = {} } = spec;
  const keyAttributes = [...new Set([...[name, ...(spec.also ?? [])].flatMap(layoutAttributes), 'entity', ...Object.keys(beside)])];
  const dropped = new Set(keyAttributes);
  const fromItem = (item: Record<string, unknown>) => {
    const out: Record<string, unknown> = {};
    for (const [attribute, value] of Object.entries(item)) if (!dropped.has(attribute)) out[attribute] = value;
    return out as R;
  };
  return {
    name,
    keyAttributes,
    keyOf: (record, context) => keyOf(name, keys(record, context)),
    toItem(record, context) {
      const params = keys(record, context);
      const indexes = indexKeysOf(
        name,
        params,
        (['gsi1', 'gsi2', 'gsi3'] as const).filter((gsi) => when[gsi]?.(record) ?? true),
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
  };
}
