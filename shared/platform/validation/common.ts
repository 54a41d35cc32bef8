import * as z from 'zod';

/** The instants a four-digit year can write in UTC: an offset may not carry a timestamp outside them. */
const FIRST_INSTANT = Date.parse('0000-01-01T00:00:00Z');
const LAST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');

/** Digits a date-time's fraction of a second may have: nanoseconds, as far as any clock goes. */
export const MAX_FRACTION_DIGITS = 9;

/** zod's own date-time pattern with its fraction bounded (it takes any number of digits). */
function boundedFraction(datetime: z.ZodISODateTime): RegExp {
  const source = datetime._zod.def.pattern?.source ?? '';
  const bounded = source.replace('(?:\\.\\d+)?', `(?:\\.\\d{1,${MAX_FRACTION_DIGITS}})?`);
  if (bounded === source) throw new Error('the date-time pattern has no fraction to bound');
  return new RegExp(bounded);
}

/**
 * An RFC 3339 timestamp with offset. Stored and answered in UTC (`toISOString`), so it must name an
 * instant of the years 0000-9999 in UTC: `0000-01-01T00:00:00+01:00` would become `-000001-...`.
 */
export const isoDateTime = z
  .stringFormat('date-time', boundedFraction(z.iso.datetime({ offset: true })))
  .refine((s) => Date.parse(s) >= FIRST_INSTANT && Date.parse(s) <= LAST_INSTANT, { message: 'must lie between 0000-01-01 and 9999-12-31 in UTC' })
  .describe('ISO 8601 date-time with its offset, e.g. 2026-01-31T12:00:00Z');

/** Names no free-form map accepts: they collide with JavaScript object internals. */
export const RESERVED_MAP_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype'];
const reserved = new Set(RESERVED_MAP_KEYS);
export const RESERVED_KEY_MESSAGE = `reserved name (${RESERVED_MAP_KEYS.join(', ')} are refused)`;

/**
 * The one schema for a free-form map in a request (custom attributes, event properties, record
 * data): keys and values as given, at most `max` keys, and the reserved names refused with a 422
 * naming the key. The raw object is checked before the record parses it, so `__proto__` (which a
 * record would silently drop) is refused too.
 */
export function freeFormMap<K extends z.ZodType<string, string>, V extends z.ZodType>(key: K, value: V, opts: { max: number; noun: string }) {
  return z.preprocess(
    (raw, ctx) => {
      if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
        for (const k of Object.keys(raw)) {
          if (reserved.has(k)) ctx.issues.push({ code: 'custom', message: RESERVED_KEY_MESSAGE, path: [k], input: raw });
        }
      }
      return raw;
    },
    z
      .record(key, value)
      .refine((m) => Object.keys(m).length <= opts.max, { message: `at most ${opts.max} ${opts.noun}` })
      // The cap in the published schema too (a refinement has no JSON Schema form of its own).
      .meta({ maxProperties: opts.max }),
  );
}

/**
 * The numbers a request may carry: 0, or a magnitude from 1e-130 (DynamoDB refuses 1e-131) to
 * 2^53 - 1. Above that a JSON number is no longer the integer that was written (9007199254740993
 * reads as ...992) and the store client refuses it, so it is a 422 naming the field rather than a
 * silently altered value or a failed write.
 */
export const MIN_NUMBER_MAGNITUDE = 1e-130;
export const MAX_NUMBER_MAGNITUDE = Number.MAX_SAFE_INTEGER;
export const isStorableNumber = (n: number): boolean => {
  const size = Math.abs(n);
  return size === 0 || (size >= MIN_NUMBER_MAGNITUDE && size <= MAX_NUMBER_MAGNITUDE);
};
export const STORABLE_NUMBER_MESSAGE = `must be 0 or between ${MIN_NUMBER_MAGNITUDE} and ${MAX_NUMBER_MAGNITUDE} in magnitude`;
/**
 * A request number that is stored as given (free-form map values, rates, prices): finite and
 * storable, so a value like 1e-300 or 1e20 is a 422 naming the field, not a write the store refuses (a 500).
 */
export const storableNumber = z.number().min(-MAX_NUMBER_MAGNITUDE).max(MAX_NUMBER_MAGNITUDE).refine(isStorableNumber, { message: STORABLE_NUMBER_MESSAGE });

/**
 * The paths of the numbers in a free-form JSON value that no field may hold (see `isStorableNumber`),
 * at most `limit` of them. The walk is bounded by the body's depth limit, checked before it.
 */
export function unstorableNumberPaths(value: unknown, limit = 10, path: (string | number)[] = [], found: (string | number)[][] = []): (string | number)[][] {
  if (found.length >= limit) return found;
  if (typeof value === 'number') {
    if (!isStorableNumber(value)) found.push(path);
  } else if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) unstorableNumberPaths(v, limit, [...path, i], found);
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) unstorableNumberPaths(v, limit, [...path, k], found);
  }
  return found.slice(0, limit);
}

const DECIMAL_INTEGER = /^-?(0|[1-9]\d{0,15})$/;
/**
 * A number in a query string: plain decimal digits only. `Number()` (what coercion does) would read
 * `0x10`, `1e1`, ` 16` and the empty string as numbers; here they are a 422 naming the parameter.
 */
export const queryInteger = <S extends z.ZodType<number | undefined, number | undefined>>(schema: S) =>
  z.preprocess((value, ctx) => {
    if (typeof value !== 'string') return value;
    if (DECIMAL_INTEGER.test(value)) return Number(value);
    ctx.issues.push({ code: 'custom', message: 'must be a decimal integer such as 50', input: value });
    return value;
  }, schema);

/** Request-side bounds (every request string and array is bounded; test/unit/shared/http/openapi-bounds.test.ts). */
export const ID_MAX_LENGTH = 64;
/** An id in a path or body (`mbr_...`, `cpl_...`): 1-64 characters; longer is a 422, never a lookup. */
export const idSchema = z.string().min(1).max(ID_MAX_LENGTH);
/** Keys of a raw batch item that is validated item by item (`z.record(rawItemKey, z.unknown())`). */
export const rawItemKey = z.string().max(256);
