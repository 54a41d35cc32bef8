import fc from 'fast-check';
import { resolvePointer } from './openapi';

/**
 * Request-value generators derived from the OpenAPI document's JSON Schemas (the request bodies and
 * parameters the server validates with), for the fuzzer (`test/e2e/fuzz.test.ts`): `validValue`
 * draws values that conform (so requests get past validation and reach the store), `invalidValue`
 * values that break the schema at one place: a wrong type, beyond a limit, odd unicode, a reserved
 * key, a missing required field, too deep, too many. A new endpoint is covered as soon as the
 * document describes it.
 */

type Json = Record<string, any>;

/** A JSON token written into the body as is (numbers JSON.stringify cannot write, like `1e400`). */
export class RawJson {
  constructor(readonly text: string) {}
}

export interface SchemaWorld {
  doc: Json;
  /** Values of real entities for a property or parameter name (`memberId`, `poolId`, `email`, ...). */
  known(name: string): readonly string[];
  /** Keys for free-form maps: the property names the document uses, plus any the world adds. */
  vocabulary: readonly string[];
  /** A schema per property name, for the values of free-form maps under that key. */
  schemaOf(name: string): Json | undefined;
}

export const RESERVED_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '__defineGetter__', 'valueOf'] as const;

/** Strings that break assumptions: lone surrogates, NUL, direction overrides, combining marks, emoji, BOM, look-alikes. */
export const ODD_STRINGS = [
  '\ud800',
  'a\udc00b',
  '\udbff\udfff',
  '\u0000',
  'a\u0000b',
  '\u202eevil',
  '\ufeff',
  'e\u0301\u0301\u0301',
  '🏳️‍🌈👩‍👩‍👧‍👦',
  'İı ß ǅ ﬀ',
  'ｍｂｒ＿１',
  '\u200b',
  ' ',
  '\t\n\r',
  '%00',
  '%2F..%2F',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '${jndi:ldap://x}',
  'WS#x#MEMBER#y',
  '#',
  '{}',
  'null',
  'NaN',
  'Infinity',
  '-0',
  '1e308',
  '0x1F',
  'true',
] as const;

const NUMBER_EDGES: unknown[] = [
  -1,
  0,
  -0,
  0.5,
  1e308,
  -1e308,
  5e-324,
  1e-300,
  -1e-131,
  1e126,
  2 ** 53,
  2 ** 53 + 2,
  1e21,
  new RawJson('1e400'),
  new RawJson('-1e400'),
  new RawJson('1e-400'),
  new RawJson('1.0'),
  new RawJson('123456789012345678901234567890'),
  // At and beyond 2^53, and in exponent form: JSON numbers no field may hold (a 422, never a 500).
  -(2 ** 53),
  new RawJson('9007199254740993'),
  new RawJson('-9007199254740993'),
  new RawJson('1.23e29'),
  new RawJson('1E+20'),
  new RawJson('9.007199254740993e15'),
  new RawJson('1e-131'),
  // A fraction far longer than a double holds.
  new RawJson(`0.${'1'.repeat(400)}`),
  new RawJson(`1.${'0'.repeat(2000)}1`),
  'NaN',
  'Infinity',
  '1',
  '1e3',
];

const WRONG_TYPES: unknown[] = [null, true, false, 0, 1.5, -1, '', 'x', [], [1, 'a'], {}, { a: 1 }];

/** Sets an own property, also for `__proto__` (plain assignment would change the prototype). */
export function setOwn(obj: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  return obj;
}

/** A copy of a JSON-ish value that keeps own `__proto__` keys and RawJson tokens. */
export function copy<T>(value: T): T {
  if (Array.isArray(value)) return value.map(copy) as T;
  if (value && typeof value === 'object' && !(value instanceof RawJson)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value)) setOwn(out, k, copy((value as Record<string, unknown>)[k]));
    return out as T;
  }
  return value;
}

/** The JSON text of a generated value: own `__proto__` keys kept, RawJson written as is, lone surrogates escaped. */
export function toJsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .map((k) => `${JSON.stringify(k)}:${toJsonText((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** `depth` nested objects (or arrays) around a leaf, as JSON text (deeper than a recursive writer would manage). */
export function nested(depth: number, kind: 'object' | 'array'): RawJson {
  return kind === 'object' ? new RawJson(`${'{"a":'.repeat(depth)}"deep"${'}'.repeat(depth)}`) : new RawJson(`${'['.repeat(depth)}"deep"${']'.repeat(depth)}`);
}

const DEEP = [33, 200, 3000].flatMap((d) => [nested(d, 'object'), nested(d, 'array')]);

const META = new Set(['description', 'default', 'examples', 'title', 'deprecated', 'readOnly', 'writeOnly']);
const isFree = (s: Json | undefined): boolean => !s || Object.keys(s).every((k) => META.has(k));

export class SchemaFuzzer {
  private readonly validMemo = new WeakMap<object, Map<string, fc.Arbitrary<unknown>>>();
  private readonly invalidMemo = new WeakMap<object, Map<string, fc.Arbitrary<unknown>>>();

  constructor(private readonly world: SchemaWorld) {}

  deref(schema: Json | undefined): Json {
    let s = schema ?? {};
    for (let i = 0; i < 20 && typeof s.$ref === 'string'; i++) {
      const target = resolvePointer(this.world.doc, s.$ref) as Json | undefined;
      if (!target) throw new Error(`fuzz: unresolved ${s.$ref}`);
      s = target;
    }
    return s;
  }

  private memo(table: WeakMap<object, Map<string, fc.Arbitrary<unknown>>>, schema: Json, key: string, make: () => fc.Arbitrary<unknown>) {
    let byKey = table.get(schema);
    if (!byKey) table.set(schema, (byKey = new Map()));
    let arb = byKey.get(key);
    if (!arb) byKey.set(key, (arb = make()));
    return arb;
  }

  /** Values that conform to the schema (small ones); known values of real entities where the name says so. */
  validValue(schema: Json | undefined, name = '', depth = 0): fc.Arbitrary<unknown> {
    const s = this.deref(schema);
    return this.memo(this.validMemo, s, `${name}|${Math.min(depth, 6)}`, () => this.makeValid(s, name, depth));
  }

  private makeValid(s: Json, name: string, depth: number): fc.Arbitrary<unknown> {
    if (s.const !== undefined) return fc.constant(s.const);
    if (Array.isArray(s.enum)) return fc.constantFrom(...s.enum);
    const branches: Json[] | undefined = s.anyOf ?? s.oneOf;
    if (branches) return fc.oneof(...branches.map((b) => this.validValue(b, name, depth + 1)));
    if (Array.isArray(s.allOf)) return this.validValue(s.allOf[0], name, depth + 1);
    if (Array.isArray(s.type)) return fc.oneof(...s.type.map((t: string) => this.validValue({ ...s, type: t }, name, depth)));
    switch (s.type) {
      case 'string':
        return this.validString(s, name);
      case 'integer': {
        const min = Math.max(s.minimum ?? -1000, s.exclusiveMinimum !== undefined ? Math.floor(s.exclusiveMinimum) + 1 : -Infinity);
        const max = Math.min(s.maximum ?? 1_000_000, s.exclusiveMaximum !== undefined ? Math.ceil(s.exclusiveMaximum) - 1 : Infinity);
        return withSpellings(fc.oneof(fc.integer({ min, max: Math.min(max, min + 100) }), fc.integer({ min, max }), fc.constantFrom(min, max)), true);
      }
      case 'number': {
        const min = s.minimum ?? s.exclusiveMinimum ?? -1000;
        const max = s.maximum ?? s.exclusiveMaximum ?? 1_000_000;
        const small = fc.integer({ min: Math.ceil(min) + (s.exclusiveMinimum !== undefined ? 1 : 0), max: Math.min(Math.floor(max), Math.ceil(min) + 100) });
        const any = fc.double({
          min,
          max,
          noNaN: true,
          noDefaultInfinity: true,
          minExcluded: s.exclusiveMinimum !== undefined,
          maxExcluded: s.exclusiveMaximum !== undefined,
        });
        const bounds = [s.minimum, s.maximum].filter((b): b is number => typeof b === 'number');
        const edges = bounds.length ? [fc.constantFrom(...bounds)] : [];
        return withSpellings(
          fc.oneof(
            small,
            any.map((n) => (Object.is(n, -0) ? 0 : n)),
            ...edges,
          ),
          false,
        );
      }
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array': {
        const minLength = s.minItems ?? 0;
        const item = this.validValue(s.items, singular(name), depth + 1);
        return fc.array(item, { minLength, maxLength: depth > 4 ? minLength : Math.min(s.maxItems ?? minLength + 3, minLength + 3) });
      }
      case 'object':
        return this.validObject(s, depth);
      default:
        // An unconstrained value (`{}`): what the document says the name usually is, else small JSON.
        if (isFree(s)) {
          const typed = name ? this.world.schemaOf(name) : undefined;
          if (typed && depth < 6) return this.validValue(typed, name, depth + 1);
          return fc.oneof(fc.string({ maxLength: 12 }), fc.integer(), fc.boolean(), fc.constant(null));
        }
        return fc.constant(null);
    }
  }

  private validString(s: Json, name: string): fc.Arbitrary<unknown> {
    const minLength = s.minLength ?? 0;
    const maxLength = s.maxLength ?? Math.max(minLength, 40);
    const fits = (v: string) => v.length >= minLength && v.length <= maxLength;
    const generic = (): fc.Arbitrary<string> => {
      if (s.format === 'date-time')
        return fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
      if (s.format === 'date')
        return fc.date({ min: new Date('1950-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
      if (typeof s.pattern === 'string') {
        try {
          return fc.stringMatching(new RegExp(s.pattern)).filter(fits);
        } catch {
          /* a pattern fast-check cannot read: plain strings below */
        }
      }
      if (/email/i.test(name)) return fc.stringMatching(/^[a-z0-9]{1,12}$/).map((l) => `fuzz-${l}@example.test`);
      if (/url$/i.test(name)) return fc.constantFrom('https://example.com/', 'https://hooks.example.com/x?y=1', 'http://127.0.0.1:9/');
      return fc.string({ minLength, maxLength: Math.min(maxLength, minLength + 24) });
    };
    const known = this.world.known(name).filter(fits);
    return known.length ? fc.oneof({ arbitrary: fc.constantFrom(...known), weight: 3 }, { arbitrary: generic(), weight: 1 }) : generic();
  }

  private validObject(s: Json, depth: number): fc.Arbitrary<unknown> {
    const props: Json = s.properties ?? {};
    const required: string[] = (s.required ?? []).filter((k: string) => k in props);
    const model: Record<string, fc.Arbitrary<unknown>> = {};
    const names = Object.keys(props).filter((k) => depth < 5 || required.includes(k));
    for (const k of names) model[k] = this.validValue(props[k], k, depth + 1);
    const fixed = fc.record(model, { requiredKeys: required });
    const extra = s.additionalProperties;
    if (!extra || typeof extra !== 'object' || depth > 4) return fixed;
    const keys = s.propertyNames ? (this.validValue({ ...s.propertyNames, type: 'string' }, '', depth + 1) as fc.Arbitrary<string>) : this.vocabularyKey();
    const value = (key: string) => this.validValue(extra, isFree(extra) ? key : '', depth + 1);
    const entries = fc.array(
      keys.chain((k) => value(k).map((v) => [k, v] as const)),
      { maxLength: 3 },
    );
    return fc.tuple(fixed, entries).map(([o, more]) => {
      const out = copy(o as Record<string, unknown>);
      for (const [k, v] of more) if (!(k in props)) setOwn(out, k, v);
      return out;
    });
  }

  private vocabularyKey(): fc.Arbitrary<string> {
    return fc.oneof(
      { arbitrary: fc.constantFrom(...this.world.vocabulary), weight: 4 },
      { arbitrary: fc.stringMatching(/^[a-z][a-zA-Z0-9_]{0,15}$/), weight: 1 },
    );
  }

  /** Values that break the schema at one place (at this node or somewhere below it). */
  invalidValue(schema: Json | undefined, name = '', depth = 0): fc.Arbitrary<unknown> {
    const s = this.deref(schema);
    return this.memo(this.invalidMemo, s, `${name}|${Math.min(depth, 6)}`, () => this.makeInvalid(s, name, depth));
  }

  private makeInvalid(s: Json, name: string, depth: number): fc.Arbitrary<unknown> {
    const options: fc.WeightedArbitrary<unknown>[] = [
      { arbitrary: fc.constantFrom(...WRONG_TYPES), weight: 2 },
      { arbitrary: fc.constantFrom(...ODD_STRINGS), weight: 2 },
      { arbitrary: fc.constantFrom(...NUMBER_EDGES), weight: 1 },
      { arbitrary: fc.constantFrom(...DEEP), weight: 1 },
    ];
    const branches: Json[] | undefined = s.anyOf ?? s.oneOf;
    if (branches) options.push({ arbitrary: fc.oneof(...branches.map((b) => this.invalidValue(b, name, depth + 1))), weight: 6 });
    const types: string[] = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
    if (types.includes('string')) options.push({ arbitrary: this.invalidString(s, name), weight: 6 });
    if (types.includes('integer') || types.includes('number')) options.push({ arbitrary: this.invalidNumber(s, types.includes('integer')), weight: 6 });
    if (Array.isArray(s.enum)) {
      const strings = s.enum.filter((e: unknown): e is string => typeof e === 'string');
      if (strings.length)
        options.push({
          arbitrary: fc.constantFrom(...strings).chain((e) => fc.constantFrom(e.toUpperCase(), ` ${e}`, `${e}\u0000`, `${e}x`, e.slice(0, -1))),
          weight: 4,
        });
    }
    if (types.includes('array') && depth < 6) options.push({ arbitrary: this.invalidArray(s, name, depth), weight: 6 });
    if (types.includes('object') && depth < 6) options.push({ arbitrary: this.invalidObject(s, depth), weight: 10 });
    if (isFree(s) && depth < 6) {
      options.push({
        arbitrary: fc.constantFrom(
          1e308,
          '\ud800',
          'x'.repeat(500_000),
          nested(3000, 'object'),
          nested(40, 'array'),
          new RawJson('1e400'),
          new RawJson('9007199254740993'),
          new RawJson('1.23e29'),
        ),
        weight: 4,
      });
      options.push({ arbitrary: fc.constantFrom(...RESERVED_KEYS).map((k) => setOwn({}, k, { polluted: true })), weight: 2 });
    }
    return fc.oneof(...options);
  }

  private invalidString(s: Json, name: string): fc.Arbitrary<unknown> {
    const valid = this.validValue({ ...s, enum: undefined, const: undefined }, name).map((v) => String(v));
    const max = s.maxLength ?? 2048;
    const beyond: string[] = ['x'.repeat(max + 1), '\ud83d\ude00'.repeat(Math.ceil((max + 1) / 2) + 1), 'x'.repeat(200_000)];
    if ((s.minLength ?? 0) > 0) beyond.push('', 'x'.repeat(s.minLength - 1));
    if (s.format === 'date-time' || s.format === 'date')
      beyond.push(
        '2026-02-30T00:00:00Z',
        '0000-01-01T00:00:00Z',
        '0000-01-01T00:00:00+01:00',
        '9999-12-31T23:00:00-05:00',
        '9999-12-31T23:59:59.999999999Z',
        '2026-01-01T00:00:00+25:00',
        '2026-01-01',
        '2026-13-01',
        '1e308',
        '-271821-04-19T00:00:00Z',
      );
    return fc.oneof(
      fc.constantFrom(...beyond),
      // A valid value spoiled at one end, or with an odd character inside.
      fc.tuple(valid, fc.constantFrom(...ODD_STRINGS), fc.nat()).map(([v, odd, at]) => {
        const i = v.length ? at % (v.length + 1) : 0;
        return v.slice(0, i) + odd + v.slice(i);
      }),
      valid.map((v) => `${v.toUpperCase()} `),
    );
  }

  private invalidNumber(s: Json, integer: boolean): fc.Arbitrary<unknown> {
    const edges: unknown[] = [...NUMBER_EDGES];
    if (s.minimum !== undefined) edges.push(s.minimum - 1, s.minimum - 0.5);
    if (s.exclusiveMinimum !== undefined) edges.push(s.exclusiveMinimum);
    if (s.maximum !== undefined) edges.push(s.maximum + 1, s.maximum + 0.5, s.maximum * 10);
    if (integer) edges.push(1.5, (s.minimum ?? 0) + 0.1);
    return fc.constantFrom(...edges);
  }

  private invalidArray(s: Json, name: string, depth: number): fc.Arbitrary<unknown> {
    const item = this.validValue(s.items, singular(name), depth + 1);
    const options: fc.Arbitrary<unknown>[] = [
      // One element spoiled.
      fc.tuple(fc.array(item, { minLength: 1, maxLength: 3 }), this.invalidValue(s.items, singular(name), depth + 1), fc.nat()).map(([items, bad, at]) => {
        const out = copy(items);
        out[at % out.length] = bad;
        return out;
      }),
    ];
    if ((s.minItems ?? 0) > 0) options.push(fc.constant([]));
    // Beyond maxItems: copies of one valid element (bounded so the body stays under the size limit).
    if (s.maxItems !== undefined && s.maxItems <= 20_000) options.push(item.map((v) => Array.from({ length: s.maxItems + 1 }, () => copy(v))));
    return fc.oneof(...options);
  }

  private invalidObject(s: Json, depth: number): fc.Arbitrary<unknown> {
    const props: Json = s.properties ?? {};
    const required: string[] = s.required ?? [];
    const valid = this.validValue(s, '', depth) as fc.Arbitrary<Record<string, unknown>>;
    const options: fc.Arbitrary<unknown>[] = [
      // Reserved and unknown keys, next to valid ones.
      fc
        .tuple(valid, fc.constantFrom(...RESERVED_KEYS, 'unknownField', 'ÿ', ''), fc.constantFrom<unknown>('x', {}, { isAdmin: true }, null, []))
        .map(([v, k, x]) => setOwn(copy(v), k, x)),
    ];
    const names = Object.keys(props);
    if (names.length) {
      // One property spoiled.
      options.push(
        fc.tuple(valid, fc.constantFrom(...names)).chain(([v, k]) => this.invalidValue(props[k], k, depth + 1).map((bad) => setOwn(copy(v), k, bad))),
      );
    }
    if (required.length) options.push(fc.tuple(valid, fc.subarray(required, { minLength: 1 })).map(([v, drop]) => omit(v, drop)));
    const extra = s.additionalProperties;
    if (extra && typeof extra === 'object') {
      const key = fc.oneof(
        fc.constantFrom(...RESERVED_KEYS, '', ' ', 'a.b', 'a b', '9x', '\ud800', 'x'.repeat(300), 'ÿ', 'WS#', '$where'),
        s.propertyNames
          ? this.invalidValue({ ...s.propertyNames, type: 'string' }, '', depth + 1).filter((k): k is string => typeof k === 'string')
          : fc.constant('x'),
      );
      const value = fc.oneof(this.validValue(extra, '', depth + 1), this.invalidValue(extra, '', depth + 1));
      options.push(fc.tuple(valid, key, value).map(([v, k, x]) => setOwn(copy(v), k, x)));
      options.push(fc.tuple(valid, this.invalidValue(extra, '', depth + 1)).map(([v, x]) => setOwn(copy(v), 'field', x)));
      // Many keys.
      options.push(fc.constantFrom(100, 2000).map((n) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]))));
    }
    return fc.oneof(...options);
  }
}

/**
 * A valid number, sometimes written another way: in exponent form (`1.6e+1`), or, for a
 * non-integer field, with a fraction far longer than a double holds (it reads as the same number).
 */
function withSpellings(numbers: fc.Arbitrary<number>, integer: boolean): fc.Arbitrary<unknown> {
  const exponent = numbers.map((n) => new RawJson(n.toExponential()));
  const longFraction = numbers.filter((n) => Number.isInteger(n) && Math.abs(n) < 1e21).map((n) => new RawJson(`${n}.${'0'.repeat(40)}1`));
  return fc.oneof({ arbitrary: numbers, weight: 6 }, { arbitrary: exponent, weight: 1 }, ...(integer ? [] : [{ arbitrary: longFraction, weight: 1 }]));
}

const singular = (name: string) => name.replace(/ies$/, 'y').replace(/s$/, '');

function omit(v: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  const out = copy(v);
  for (const k of keys) delete out[k];
  return out;
}

/** Every property name of the document's request schemas, with the first schema seen for each. */
export function requestVocabulary(doc: Json): Map<string, Json> {
  const found = new Map<string, Json>();
  const seen = new Set<object>();
  const walk = (node: unknown): void => {
    if (!node || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const n of node) walk(n);
      return;
    }
    const n = node as Json;
    if (typeof n.$ref === 'string') walk(resolvePointer(doc, n.$ref));
    if (n.properties && typeof n.properties === 'object') {
      for (const [k, v] of Object.entries(n.properties)) if (!found.has(k)) found.set(k, v as Json);
    }
    for (const [k, v] of Object.entries(n)) if (k !== '$ref') walk(v);
  };
  for (const item of Object.values<Json>(doc.paths ?? {})) {
    for (const op of Object.values<Json>(item)) {
      walk(op.requestBody);
      walk(op.parameters);
    }
  }
  return found;
}
