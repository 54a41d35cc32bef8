import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { breakingChanges, defaultTitleField, fieldDefSchema, KEY_PATTERN, putObjectTypeBody, type FieldDef } from '../../../../shared/objects/definitions';
import { FIELD_TYPES, type FieldType } from '../../../../shared/objects/entities';
import { encodeFilterValue, titleKeyOf, validateRecordData } from '../../../../shared/objects/validator';
import { toDetails } from '../../../../shared/platform/validation/validation';

const MEMBER = 'mbr_01j9z3k4m5n6p7q8r9s0t1v2w3';
const f = (key: string, type: FieldType, extra: Partial<FieldDef> = {}): FieldDef => ({
  key,
  type,
  required: false,
  ...(type === 'enum' ? { options: ['open', 'closed'] } : {}),
  ...extra,
});

/** The details the HTTP layer would answer for a PUT body. */
function putDetails(body: unknown): { field: string; message: string }[] {
  const r = putObjectTypeBody.safeParse(body);
  return r.success ? [] : toDetails('body', r.error).map(({ field, message }) => ({ field, message }));
}

const validType = {
  label: 'Repair job',
  fields: [
    { key: 'title', type: 'text', required: true },
    { key: 'status', type: 'enum', options: ['open', 'done'] },
    { key: 'owner', type: 'member_ref' },
  ],
  status: 'published',
  apiVisible: true,
};

describe('object type definitions', () => {
  it('accepts a valid type and defaults required to false', () => {
    const r = putObjectTypeBody.parse({ ...validType, titleField: 'status', description: 'Jobs in the workshop' });
    expect(r.fields[1]).toEqual({ key: 'status', type: 'enum', required: false, options: ['open', 'done'] });
    expect(r.titleField).toBe('status');
    expect(fieldDefSchema.parse({ key: 'a', type: 'text', label: 'A' })).toEqual({ key: 'a', type: 'text', required: false, label: 'A' });
  });

  it('every field type is accepted (enum with options)', () => {
    for (const type of FIELD_TYPES) {
      const def = type === 'enum' ? { key: 'x', type, options: ['a'] } : { key: 'x', type };
      expect(fieldDefSchema.safeParse(def).success, type).toBe(true);
    }
  });

  it('key pattern: identifiers of 1-63 characters', () => {
    for (const ok of ['a', 'repair_job', 'a1_b2', `a${'b'.repeat(62)}`]) expect(KEY_PATTERN.test(ok), ok).toBe(true);
    for (const bad of ['', '1a', '_a', 'A', 'aB', 'a-b', 'a b', 'é', `a${'b'.repeat(63)}`, '__proto__']) expect(KEY_PATTERN.test(bad), bad).toBe(false);
    expect(putDetails({ ...validType, fields: [{ key: 'Bad-Key', type: 'text' }] })).toEqual([
      { field: 'fields.0.key', message: expect.stringMatching(/a-z/) },
    ]);
  });

  it('enum without options, empty options, options on another type, duplicate or empty options', () => {
    const fields = [
      { key: 'a', type: 'text' },
      { key: 'b', type: 'enum' },
      { key: 'c', type: 'text', options: ['x'] },
      { key: 'd', type: 'enum', options: [] },
      { key: 'e', type: 'enum', options: ['x', 'y', 'x'] },
      { key: 'g', type: 'enum', options: ['x', ''] },
      { key: 'h', type: 'enum', options: ['x'.repeat(201)] },
      { key: 'i', type: 'enum', options: Array.from({ length: 101 }, (_, n) => `o${n}`) },
    ];
    const details = putDetails({ ...validType, fields });
    expect(details.map((d) => d.field).sort()).toEqual([
      'fields.1.options',
      'fields.2.options',
      'fields.3.options',
      'fields.4.options',
      'fields.5.options.1',
      'fields.6.options.0',
      'fields.7.options',
    ]);
    const by = Object.fromEntries(details.map((d) => [d.field, d.message]));
    expect(by['fields.1.options']).toMatch(/required for enum/);
    expect(by['fields.2.options']).toMatch(/only allowed for enum/);
    expect(by['fields.4.options']).toMatch(/"x" twice/);
  });

  it('duplicate field keys: one detail on the repeated key', () => {
    const details = putDetails({
      ...validType,
      fields: [
        { key: 'a', type: 'text' },
        { key: 'b', type: 'number' },
        { key: 'a', type: 'date' },
      ],
    });
    expect(details).toEqual([{ field: 'fields.2.key', message: 'duplicate key "a" (also fields.0.key)' }]);
  });

  it('titleField must name a text-like field', () => {
    const fields = [
      { key: 'name', type: 'text' },
      { key: 'done', type: 'boolean' },
      { key: 'n', type: 'number' },
      { key: 'due', type: 'date' },
    ];
    expect(putDetails({ ...validType, fields, titleField: 'done' })).toEqual([{ field: 'titleField', message: expect.stringMatching(/"done" is boolean/) }]);
    expect(putDetails({ ...validType, fields, titleField: 'n' })).toEqual([{ field: 'titleField', message: expect.stringMatching(/is number/) }]);
    expect(putDetails({ ...validType, fields, titleField: 'nope' })).toEqual([
      { field: 'titleField', message: expect.stringMatching(/key of one of the fields/) },
    ]);
    for (const t of ['name', 'due']) expect(putDetails({ ...validType, fields, titleField: t })).toEqual([]);
  });

  it('body rules: label, field count, status, apiVisible, description, unknown keys; all at once', () => {
    const details = putDetails({
      label: ' ',
      fields: [
        { key: 'a', type: 'text', color: 'red' },
        { key: 'b', type: 'money' },
        { key: 'a', type: 'text' },
      ],
      status: 'live',
      description: 'x'.repeat(1001),
      extra: 1,
    });
    expect(details.map((d) => d.field).sort()).toEqual([
      'apiVisible',
      'description',
      'extra',
      'fields.0.color',
      'fields.1.type',
      'fields.2.key',
      'label',
      'status',
    ]);
    expect(putDetails({ ...validType, fields: [] })).toEqual([{ field: 'fields', message: 'must define at least one field' }]);
    expect(putDetails({ ...validType, fields: Array.from({ length: 101 }, (_, i) => ({ key: `f${i}`, type: 'text' })) }).map((d) => d.field)).toEqual([
      'fields',
    ]);
    expect(putDetails({ ...validType, fields: Array.from({ length: 100 }, (_, i) => ({ key: `f${i}`, type: 'text' })) })).toEqual([]);
    expect(putDetails({ ...validType, fields: [{ key: 'a', type: 'text', label: 'x'.repeat(101) }] }).map((d) => d.field)).toEqual(['fields.0.label']);
  });

  it('defaultTitleField: first required text field, else first text field, else none', () => {
    expect(defaultTitleField([f('n', 'number'), f('a', 'text'), f('b', 'text', { required: true })])).toBe('b');
    expect(defaultTitleField([f('n', 'number'), f('a', 'text'), f('b', 'text')])).toBe('a');
    expect(defaultTitleField([f('n', 'number'), f('e', 'email', { required: true })])).toBeUndefined();
  });
});

describe('breakingChanges', () => {
  const base = [f('name', 'text', { required: true }), f('status', 'enum', { options: ['open', 'done'] }), f('n', 'number')];

  it('safe: labels, new optional fields, enum options added, required -> optional, explicit default title', () => {
    const next = [
      f('name', 'text', { required: true, label: 'Name' }),
      f('status', 'enum', { options: ['done', 'open', 'parked'], label: 'Status' }),
      f('n', 'number'),
      f('note', 'text'),
    ];
    expect(breakingChanges(base, next, undefined, undefined)).toEqual([]);
    expect(breakingChanges(base, next, undefined, 'name')).toEqual([]);
    expect(
      breakingChanges([f('a', 'text', { required: true }), f('b', 'date', { required: true })], [f('a', 'text', { required: true }), f('b', 'date')], 'a', 'a'),
    ).toEqual([]);
  });

  it('breaking: removed, type changed, made required, new required, enum option removed, title changed', () => {
    expect(breakingChanges(base, [base[0]!, base[1]!], undefined, undefined)).toEqual(['field "n" is removed']);
    expect(breakingChanges(base, [base[0]!, base[1]!, f('n', 'text')], undefined, undefined)).toEqual(['field "n" changes type from number to text']);
    expect(breakingChanges(base, [base[0]!, base[1]!, f('n', 'number', { required: true })], undefined, undefined)).toEqual(['field "n" becomes required']);
    expect(breakingChanges(base, [...base, f('due', 'date', { required: true })], undefined, undefined)).toEqual(['new field "due" is required']);
    expect(breakingChanges(base, [base[0]!, f('status', 'enum', { options: ['open', 'parked'] }), base[2]!], undefined, undefined)).toEqual([
      'enum field "status" no longer allows: "done"',
    ]);
    expect(breakingChanges(base, base, undefined, 'status')).toEqual(['title field changes from "name" to "status"']);
    expect(breakingChanges(base, base, 'status', undefined)).toEqual(['title field changes from "status" to "name"']);
  });

  it('an implicit title that moves or disappears is breaking', () => {
    const a = [f('a', 'text'), f('b', 'text')];
    expect(breakingChanges(a, [f('b', 'text'), f('a', 'text')], undefined, undefined)).toEqual(['title field changes from "a" to "b"']);
    expect(breakingChanges([f('n', 'number')], [f('n', 'number'), f('t', 'text')], undefined, undefined)).toEqual(['title field changes from none to "t"']);
  });
});

describe('validateRecordData: values by type', () => {
  const cases: { type: FieldType; extra?: Partial<FieldDef>; ok: unknown[]; bad: [unknown, RegExp][] }[] = [
    {
      type: 'text',
      ok: ['', 'hello', 'x'.repeat(10_000), '🙂 ünï'],
      bad: [
        [42, /string/],
        ['x'.repeat(10_001), /at most 10000/],
        [['a'], /string/],
        [{ a: 1 }, /string/],
      ],
    },
    {
      type: 'number',
      ok: [0, -0, -1.5, 42, 0.1234567890123456789, 1.5e-7, -1e-130, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER],
      bad: [
        ['42', /number/],
        [2 ** 53, /magnitude/],
        [9007199254740993, /magnitude/],
        [-(2 ** 53), /magnitude/],
        [1e20, /magnitude/],
        [1.23e29, /magnitude/],
        [1e125, /magnitude/],
        [1e126, /magnitude/],
        [-1e300, /magnitude/],
        [1e-131, /magnitude/],
        [Number.MIN_VALUE, /magnitude/],
        [Number.NaN, /number/],
        [Number.POSITIVE_INFINITY, /number/],
        [true, /number/],
      ],
    },
    {
      type: 'boolean',
      ok: [true, false],
      bad: [
        ['true', /true or false/],
        [0, /true or false/],
        [1, /true or false/],
      ],
    },
    {
      type: 'date',
      ok: ['2024-02-29', '2026-12-31', '0001-01-01', '2000-02-29', '2026-01-31'],
      bad: [
        ['2024-01-01x', /YYYY-MM-DD/],
        ['x2024-01-01', /YYYY-MM-DD/],
        ['2024-04-31', /real calendar date/],
        ['2024-00-10', /real calendar date/],
        ['2024-01-00', /real calendar date/],
        [['2024-01-01'], /YYYY-MM-DD/], // an array whose text would pass
        ['2024-02-30', /real calendar date/],
        ['2023-02-29', /real calendar date/],
        ['1900-02-29', /real calendar date/],
        ['2024-13-01', /real calendar date/],
        ['2024-1-01', /YYYY-MM-DD/],
        ['2024-01-01T00:00:00Z', /YYYY-MM-DD/],
        [' 2024-01-01', /YYYY-MM-DD/],
        [20240101, /YYYY-MM-DD/],
      ],
    },
    {
      type: 'datetime',
      ok: [
        '2026-01-02T03:04:05Z',
        '2026-01-02T03:04:05+02:00',
        '2026-01-02T03:04:05.123456-05:30',
        '2024-02-29T23:59:59.9Z',
        '2026-12-31T23:59:59+23:59',
        '2026-01-02T00:00:00-00:00',
      ],
      bad: [
        // Anchored at both ends: nothing before or after the date-time.
        ['2026-01-02T03:04:05Zjunk', /ISO 8601/],
        ['junk2026-01-02T03:04:05Z', /ISO 8601/],
        ['2026-01-02T03:04:05+02:00junk', /ISO 8601/],
        // No leap seconds; offsets are real offsets.
        ['2026-12-31T23:59:60Z', /real date and time/],
        ['2026-01-02T03:04:05+01:60', /real date and time/],
        ['2026-01-02T03:04:05.Z', /ISO 8601/],
        [['2026-01-02T03:04:05Z'], /ISO 8601/], // an array whose text would pass
        ['2026-01-02', /ISO 8601/],
        ['2026-01-02T03:04:05', /ISO 8601/],
        ['2026-01-02 03:04:05Z', /ISO 8601/],
        ['2026-01-02T03:04Z', /ISO 8601/],
        ['2026-01-02T03:04:05+0200', /ISO 8601/],
        ['2026-02-30T03:04:05Z', /real date and time/],
        ['2026-01-02T24:00:00Z', /real date and time/],
        ['2026-01-02T03:60:05Z', /real date and time/],
        ['2026-01-02T03:04:05+24:00', /real date and time/],
        [1767322645000, /ISO 8601/],
      ],
    },
    {
      type: 'enum',
      extra: { options: ['open', 'In progress'] },
      ok: ['open', 'In progress'],
      bad: [
        ['Open', /must be one of: open, In progress/],
        ['in progress', /one of/],
        ['', /one of/],
        [1, /one of/],
      ],
    },
    {
      type: 'email',
      ok: ['ann@example.com', 'a.b+c@sub.example.io'],
      bad: [
        ['not-an-email', /e-mail/],
        ['a@b', /e-mail/],
        ['a..b@c.de', /e-mail/],
        [`${'a'.repeat(250)}@ex.io`, /e-mail/],
        [7, /e-mail/],
      ],
    },
    {
      type: 'url',
      ok: [
        'https://example.com',
        'HTTPS://Example.com/a',
        'http://localhost:8080/a?b=c#d',
        `https://example.com/${'a'.repeat(2000)}`,
        `https://example.com/${'a'.repeat(2048 - 20)}`,
      ],
      bad: [
        ['http:https://example.com', /http or https/], // parses, as host "https": the scheme must be followed by //
        [['https://example.com'], /http or https/],
        [`https://example.com/${'a'.repeat(2048 - 19)}`, /at most 2048/],
        ['ftp://example.com', /http or https/],
        ['example.com', /http or https/],
        ['//example.com', /http or https/],
        ['javascript:alert(1)', /http or https/],
        ['http://', /http or https/],
        ['http://:80/', /http or https/],
        ['https://[]/', /http or https/],
        ['https://exa mple.com', /http or https/],
        [`https://example.com/${'a'.repeat(2030)}`, /at most 2048/],
        [1, /http or https/],
      ],
    },
    {
      type: 'member_ref',
      ok: [MEMBER],
      bad: [
        ['mbr_01j9z3k4m5n6p7q8r9s0t1v2w', /member id/],
        ['MBR_01J9Z3K4M5N6P7Q8R9S0T1V2W3', /member id/],
        ['mbr_01j9z3k4m5n6p7q8r9s0t1v2wi', /member id/],
        ['rec_01j9z3k4m5n6p7q8r9s0t1v2w3', /member id/],
        [123, /member id/],
        [[MEMBER], /member id/],
      ],
    },
  ];

  for (const c of cases) {
    it(`${c.type}: accepts valid values and refuses others with one clear issue`, () => {
      const fields = [f('v', c.type, c.extra)];
      for (const ok of c.ok) {
        const r = validateRecordData(fields, { v: ok }, 'full');
        expect(r.issues, JSON.stringify(ok)).toEqual([]);
        expect(r.value).toEqual({ v: ok });
      }
      for (const [bad, message] of c.bad) {
        const r = validateRecordData(fields, { v: bad }, 'full');
        expect(r.issues, String(bad).slice(0, 60)).toEqual([{ field: 'v', message: expect.stringMatching(message) }]);
        expect(r.value).toEqual({});
        expect(validateRecordData(fields, { v: bad }, 'patch').issues).toHaveLength(1);
      }
    });
  }

  it('email is stored trimmed and lower-cased', () => {
    expect(validateRecordData([f('e', 'email')], { e: '  Ann@Example.COM ' }, 'full')).toEqual({ issues: [], value: { e: 'ann@example.com' }, memberRefs: [] });
  });

  it('member references are handed back, once each', () => {
    const fields = [f('owner', 'member_ref'), f('helper', 'member_ref'), f('other', 'member_ref')];
    const r = validateRecordData(fields, { owner: MEMBER, helper: MEMBER, other: null }, 'patch');
    expect(r.issues).toEqual([]);
    expect(r.memberRefs).toEqual([MEMBER]);
    expect(validateRecordData(fields, { owner: 'mbr_x' }, 'full').memberRefs).toEqual([]);
  });
});

describe('validateRecordData: presence, nulls, unknown keys', () => {
  const fields = [f('name', 'text', { required: true }), f('n', 'number'), f('status', 'enum')];

  it('data must be a plain object', () => {
    for (const data of [null, [], 'x', 1, undefined, new Date()]) {
      expect(validateRecordData(fields, data, 'full').issues).toEqual([{ field: '', message: 'must be an object' }]);
    }
    expect(validateRecordData([f('n', 'number')], Object.create(null), 'full').issues).toEqual([]);
  });

  it('unknown keys: one issue each, also prototype names', () => {
    const data = JSON.parse('{"name":"a","x":1,"constructor":2,"__proto__":{"n":"bad"}}') as unknown;
    const r = validateRecordData(fields, data, 'full');
    expect(r.issues).toEqual([
      { field: 'x', message: 'unknown field' },
      { field: 'constructor', message: 'unknown field' },
      { field: '__proto__', message: 'unknown field' },
    ]);
    expect(r.value).toEqual({ name: 'a' });
    expect(Object.getPrototypeOf(r.value)).toBe(Object.prototype);
  });

  it('full: required fields must be present and non-null; null optional = absent', () => {
    expect(validateRecordData(fields, {}, 'full').issues).toEqual([{ field: 'name', message: 'required' }]);
    expect(validateRecordData(fields, { name: null }, 'full').issues).toEqual([{ field: 'name', message: 'required' }]);
    expect(validateRecordData(fields, { name: '' }, 'full').issues).toEqual([]);
    expect(validateRecordData(fields, { name: 'a', n: null, status: null }, 'full')).toEqual({ issues: [], value: { name: 'a' }, memberRefs: [] });
  });

  it('patch: only given keys; null removes optional fields and stays in value; required cannot be removed', () => {
    expect(validateRecordData(fields, {}, 'patch')).toEqual({ issues: [], value: {}, memberRefs: [] });
    expect(validateRecordData(fields, { n: 2 }, 'patch')).toEqual({ issues: [], value: { n: 2 }, memberRefs: [] });
    expect(validateRecordData(fields, { n: null, status: 'open' }, 'patch')).toEqual({ issues: [], value: { n: null, status: 'open' }, memberRefs: [] });
    expect(validateRecordData(fields, { name: null }, 'patch').issues).toEqual([{ field: 'name', message: 'required fields cannot be removed' }]);
  });

  it('one issue per offending key, every offending key reported', () => {
    const r = validateRecordData(fields, { n: '1', status: 'OPEN', zzz: true }, 'full');
    expect(r.issues).toEqual([
      { field: 'n', message: 'must be a number' },
      { field: 'status', message: 'must be one of: open, closed' },
      { field: 'zzz', message: 'unknown field' },
      { field: 'name', message: 'required' },
    ]);
    expect(new Set(r.issues.map((i) => i.field)).size).toBe(r.issues.length);
  });

  it('a key whose value is undefined (only code makes those) counts as absent, in both modes', () => {
    expect(validateRecordData(fields, { name: 'a', n: undefined }, 'full')).toEqual({ issues: [], value: { name: 'a' }, memberRefs: [] });
    expect(validateRecordData(fields, { n: undefined }, 'patch')).toEqual({ issues: [], value: {}, memberRefs: [] });
  });

  it('what is not an object gets nothing back but the issue', () => {
    expect(validateRecordData([f('m', 'member_ref')], [MEMBER], 'full')).toEqual({
      issues: [{ field: '', message: 'must be an object' }],
      value: {},
      memberRefs: [],
    });
  });

  it('an enum without options accepts nothing', () => {
    expect(validateRecordData([{ key: 's', type: 'enum', required: false }], { s: 'open' }, 'full').issues).toEqual([
      { field: 's', message: 'must be one of: ' },
    ]);
  });

  it('up to 20 options are listed in full', () => {
    const options = Array.from({ length: 20 }, (_, i) => `o${i}`);
    const [issue] = validateRecordData([f('s', 'enum', { options })], { s: 'x' }, 'full').issues;
    expect(issue!.message).toBe(`must be one of: ${options.join(', ')}`);
  });

  it('long option lists are cut in the message', () => {
    const options = Array.from({ length: 30 }, (_, i) => `o${i}`);
    const [issue] = validateRecordData([f('s', 'enum', { options })], { s: 'x' }, 'full').issues;
    expect(issue!.message).toMatch(/o19, \.\.\. \(10 more\)$/);
  });
});

describe('titleKeyOf', () => {
  const fields = [f('n', 'number'), f('name', 'text'), f('code', 'text', { required: true }), f('due', 'date')];

  it('uses the title field, else the default; NFKC, lower case, trimmed, 200 characters', () => {
    expect(titleKeyOf(fields, 'name', { name: '  Ｈello  World ' })).toBe('1#hello  world\u0001');
    expect(titleKeyOf(fields, undefined, { name: 'x', code: 'ABC' })).toBe('1#abc\u0001');
    expect(titleKeyOf(fields, null, { code: 'ABC' })).toBe('1#abc\u0001');
    expect(titleKeyOf(fields, 'due', { due: '2026-01-02' })).toBe('1#2026-01-02\u0001');
    expect(titleKeyOf(fields, 'name', { name: '🙂'.repeat(300) })).toBe(`1#${'🙂'.repeat(200)}\u0001`);
    // Lower-casing can decompose ("J̌" -> "j" + combining caron): normalised again afterwards.
    expect(titleKeyOf(fields, 'name', { name: 'ǰ'.toUpperCase() })).toBe(titleKeyOf(fields, 'name', { name: 'ǰ' }));
    expect(titleKeyOf(fields, 'name', { name: 'a\u0000b\n' })).toBe('1#ab\u0001');
  });

  it('missing, blank or no title field: 2#', () => {
    expect(titleKeyOf(fields, 'name', {})).toBe('2#');
    expect(titleKeyOf(fields, 'name', Object.create({ name: 'Inherited' }) as Record<string, unknown>)).toBe('2#'); // own values only
    expect(titleKeyOf([f('n', 'number')], undefined, { undefined: 'Not a title' })).toBe('2#'); // no title field: untitled
    expect(titleKeyOf(fields, 'name', { name: '   ' })).toBe('2#');
    expect(titleKeyOf([f('n', 'number')], undefined, { n: 1 })).toBe('2#');
  });

  it('orders case-insensitively, prefixes first, untitled last, also with a #<id> suffix', () => {
    const titles = ['b', 'Ann Smith', 'ann', undefined, 'Ann-Marie', 'ANNA', ''];
    const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    const sorted = titles
      .map((t, i) => ({ t, k: `${titleKeyOf(fields, 'name', t === undefined ? {} : { name: t })}#rec_${i}` }))
      .sort((a, b) => cmp(a.k, b.k))
      .map((x) => x.t);
    expect(sorted.slice(0, 5)).toEqual(['ann', 'Ann Smith', 'Ann-Marie', 'ANNA', 'b']);
    expect(new Set(sorted.slice(5))).toEqual(new Set([undefined, '']));
  });
});

describe('encodeFilterValue', () => {
  it('numbers, booleans, e-mail normalisation, exact strings, refusals', () => {
    expect(encodeFilterValue(f('n', 'number'), '42')).toEqual({ ok: true, value: 42 });
    expect(encodeFilterValue(f('n', 'number'), '-1.5e3')).toEqual({ ok: true, value: -1500 });
    expect(encodeFilterValue(f('n', 'number'), '1e200')).toEqual({ ok: false, message: expect.stringMatching(/magnitude/) });
    for (const bad of ['', ' 1', '1 ', '0x10', '1,5', 'NaN', 'Infinity', '1e999', '+1', '.5', 'abc']) {
      expect(encodeFilterValue(f('n', 'number'), bad), bad).toEqual({ ok: false, message: 'must be a number' });
    }
    expect(encodeFilterValue(f('b', 'boolean'), 'true')).toEqual({ ok: true, value: true });
    expect(encodeFilterValue(f('b', 'boolean'), 'false')).toEqual({ ok: true, value: false });
    expect(encodeFilterValue(f('b', 'boolean'), 'TRUE')).toEqual({ ok: false, message: 'must be true or false' });
    expect(encodeFilterValue(f('e', 'email'), ' Ann@Example.com')).toEqual({ ok: true, value: 'ann@example.com' });
    expect(encodeFilterValue(f('t', 'text'), ' Mixed Case ')).toEqual({ ok: true, value: ' Mixed Case ' });
    expect(encodeFilterValue(f('t', 'text'), '')).toEqual({ ok: true, value: '' });
    expect(encodeFilterValue(f('s', 'enum'), 'open')).toEqual({ ok: true, value: 'open' });
    expect(encodeFilterValue(f('s', 'enum'), 'Open')).toEqual({ ok: false, message: 'must be one of: open, closed' });
    expect(encodeFilterValue(f('d', 'date'), '2024-02-30').ok).toBe(false);
    expect(encodeFilterValue(f('m', 'member_ref'), MEMBER)).toEqual({ ok: true, value: MEMBER });
  });
});

// ---------------------------------------------------------------------------------------------
// Property-based: random records against random schemas; the validator accepts exactly the valid ones.

const keyArb = fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/);
const optionArb = fc.string({ minLength: 1, maxLength: 12 });

const fieldArb = (key: string) =>
  fc
    .record({ type: fc.constantFrom(...FIELD_TYPES), required: fc.boolean(), options: fc.uniqueArray(optionArb, { minLength: 1, maxLength: 6 }) })
    .map(({ type, required, options }) => (type === 'enum' ? { key, type, required, options } : { key, type, required }));

/** A random type, checked by the definition schema itself. */
const schemaArb = fc
  .uniqueArray(keyArb, { minLength: 1, maxLength: 10 })
  .chain((keys) => fc.tuple(...keys.map(fieldArb)))
  .map((fields) => putObjectTypeBody.parse({ label: 'Random', fields, status: 'published', apiVisible: true }).fields);

const digits = (min: number, max: number) => fc.integer({ min, max }).map((n) => String(n).padStart(2, '0'));
const dateArb = fc
  .date({ min: new Date('0000-01-01T00:00:00.000Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const datetimeArb = fc
  .tuple(
    dateArb,
    digits(0, 23),
    digits(0, 59),
    digits(0, 59),
    fc.option(fc.stringMatching(/^\.[0-9]{1,9}$/), { nil: '' }),
    fc.oneof(
      fc.constant('Z'),
      fc.tuple(fc.constantFrom('+', '-'), digits(0, 23), digits(0, 59)).map(([s, h, m]) => `${s}${h}:${m}`),
    ),
  )
  .map(([d, h, mi, s, frac, off]) => `${d}T${h}:${mi}:${s}${frac}${off}`);
const labelArb = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,6}[a-z0-9])?$/);
const hostArb = fc.tuple(fc.array(labelArb, { minLength: 1, maxLength: 3 }), fc.stringMatching(/^[a-z]{2,6}$/)).map(([ls, tld]) => [...ls, tld].join('.'));
const emailArb = fc
  .tuple(fc.array(fc.stringMatching(/^[a-z0-9_+-]{1,8}$/), { minLength: 1, maxLength: 3 }), hostArb)
  .map(([local, host]) => `${local.join('.')}@${host}`);
const urlArb = fc.oneof(
  fc
    .tuple(
      fc.constantFrom('http', 'https'),
      hostArb,
      fc.option(fc.integer({ min: 1, max: 65535 })),
      fc.stringMatching(/^(\/[A-Za-z0-9._~%-]{0,10}){0,3}(\?[a-z0-9=&]{0,12})?(#[a-z0-9]{0,5})?$/),
    )
    .map(([scheme, host, port, rest]) => `${scheme}://${host}${port === null ? '' : `:${port}`}${rest}`),
  fc.webUrl({ validSchemes: ['http', 'https'], withQueryParameters: true, withFragments: true }),
);
const memberArb = fc.stringMatching(/^[0-9a-hjkmnp-tv-z]{26}$/).map((s) => `mbr_${s}`);

function validValueArb(field: FieldDef): fc.Arbitrary<unknown> {
  switch (field.type) {
    case 'text':
      return fc.oneof(
        { arbitrary: fc.string({ maxLength: 40, unit: 'grapheme' }), weight: 8 },
        { arbitrary: fc.string({ maxLength: 20, unit: 'binary' }), weight: 2 },
        { arbitrary: fc.constant('x'.repeat(10_000)), weight: 1 },
      );
    case 'number':
      return fc.oneof(
        fc.integer(),
        fc.double({ noNaN: true, min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }).filter((n) => n === 0 || Math.abs(n) >= 1e-130),
      );
    case 'boolean':
      return fc.boolean();
    case 'date':
      return dateArb;
    case 'datetime':
      return datetimeArb;
    case 'enum':
      return fc.constantFrom(...field.options!);
    case 'email':
      return emailArb;
    case 'url':
      return urlArb;
    case 'member_ref':
      return memberArb;
  }
}

const nonNullJson = fc.jsonValue().filter((v) => v !== null);

/** Values no record of this field may hold, by construction. */
function invalidValueArb(field: FieldDef): fc.Arbitrary<unknown> {
  const notString = nonNullJson.filter((v) => typeof v !== 'string');
  switch (field.type) {
    case 'text':
      return fc.oneof(notString, fc.constant('x'.repeat(10_001)));
    case 'number':
      return fc.oneof(
        nonNullJson.filter((v) => typeof v !== 'number'),
        fc.double().map(String),
        fc.constantFrom(
          Number.NaN,
          Number.POSITIVE_INFINITY,
          Number.NEGATIVE_INFINITY,
          2 ** 53,
          -(2 ** 53),
          1e20,
          1e125,
          1e126,
          -Number.MAX_VALUE,
          Number.MIN_VALUE,
          -1e-131,
        ),
      );
    case 'boolean':
      return fc.oneof(
        nonNullJson.filter((v) => typeof v !== 'boolean'),
        fc.constantFrom('true', 'false', 0, 1),
      );
    case 'date':
      return fc.oneof(
        notString,
        fc.string().filter((s) => !/^\d{4}-\d{2}-\d{2}$/.test(s)),
        datetimeArb,
        fc.constantFrom(
          '2024-02-30',
          '2023-02-29',
          '2100-02-29',
          '2024-04-31',
          '2024-13-01',
          '2024-00-10',
          '2024-01-00',
          '2024-1-01',
          '2024/01/01',
          ' 2024-01-01',
        ),
      );
    case 'datetime':
      return fc.oneof(
        notString,
        dateArb,
        datetimeArb.map((s) => s.replace(/(Z|[+-]\d{2}:\d{2})$/, '')),
        datetimeArb.map((s) => s.replace('T', ' ')),
        fc.constantFrom(
          '2026-02-30T00:00:00Z',
          '2026-01-02T24:00:00Z',
          '2026-01-02T03:60:00Z',
          '2026-01-02T03:04:60Z',
          '2026-01-02T03:04Z',
          '2026-01-02T03:04:05+0200',
          '2026-01-02T03:04:05+24:00',
          '2026-01-02t03:04:05z',
          '2026-01-02T03:04:05.Z',
          '2026-01-02T03:04:05.1234567890Z',
        ),
      );
    case 'enum': {
      const options = field.options!;
      return fc.oneof(
        notString,
        fc.string().filter((s) => !options.includes(s)),
        fc.constantFrom(...options).map((o) => `${o} `),
        fc
          .constantFrom(...options)
          .map((o) => (o.toUpperCase() === o ? `${o}x` : o.toUpperCase()))
          .filter((s) => !options.includes(s)),
      );
    }
    case 'email':
      return fc.oneof(
        notString,
        fc.string().filter((s) => !s.includes('@')),
        emailArb.map((e) => e.replace('@', '@@')),
        emailArb.map((e) => `${e.slice(0, e.indexOf('@') + 1)}localhost`),
        emailArb.map((e) => `${'a'.repeat(250)}${e}`),
        fc.constantFrom('a..b@c.de', '@x.io', 'a@', 'a b@c.de'),
      );
    case 'url':
      return fc.oneof(
        notString,
        hostArb,
        hostArb.map((h) => `//${h}`),
        hostArb.map((h) => `ftp://${h}`),
        hostArb.map((h) => `https://${h}/${'a'.repeat(2048)}`),
        hostArb.map((h) => `https://${h}/a b`),
        fc.constantFrom('javascript:alert(1)', 'mailto:a@b.co', 'http://', 'https://', 'http:example.com'),
      );
    case 'member_ref':
      return fc.oneof(
        notString,
        memberArb.map((m) => m.slice(0, -1)),
        memberArb.map((m) => `${m}a`),
        memberArb.map((m) => m.toUpperCase()).filter((m) => m !== m.toLowerCase()),
        memberArb.map((m) => m.replace('mbr_', 'rec_')),
        memberArb.map((m) => `${m.slice(0, -1)}u`),
      );
  }
}

/** A valid full record: required fields present, optional ones present, absent or null. */
function validRecordArb(fields: FieldDef[]): fc.Arbitrary<Record<string, unknown>> {
  const entries = fields.map((field) =>
    field.required
      ? validValueArb(field)
      : fc.oneof({ arbitrary: validValueArb(field), weight: 3 }, { arbitrary: fc.constant(undefined), weight: 1 }, { arbitrary: fc.constant(null), weight: 1 }),
  );
  return fc.tuple(...entries).map((values) => {
    const data: Record<string, unknown> = {};
    values.forEach((v, i) => {
      if (v !== undefined) data[fields[i]!.key] = v;
    });
    return data;
  });
}

const withoutNulls = (data: Record<string, unknown>) => Object.fromEntries(Object.entries(data).filter(([, v]) => v !== null));

type Mutated = { data: Record<string, unknown>; field: string; how: string };

/** A valid record broken in exactly one way, naming the field it breaks. */
function mutatedRecordArb(fields: FieldDef[]): fc.Arbitrary<Mutated> {
  const keys = new Set(fields.map((x) => x.key));
  const required = fields.filter((x) => x.required);
  const kinds: fc.Arbitrary<Mutated>[] = [
    fc
      .tuple(validRecordArb(fields), fc.constantFrom(...fields))
      .chain(([data, field]) => invalidValueArb(field).map((bad) => ({ data: { ...data, [field.key]: bad }, field: field.key, how: `invalid ${field.type}` }))),
    fc
      .tuple(
        validRecordArb(fields),
        fc.oneof(keyArb, fc.string(), fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty')).filter((k) => !keys.has(k)),
        fc.jsonValue(),
      )
      .map(([data, key, v]) => {
        const copy = { ...data };
        Object.defineProperty(copy, key, { value: v, enumerable: true, configurable: true, writable: true });
        return { data: copy, field: key, how: 'unknown key' };
      }),
  ];
  if (required.length > 0) {
    kinds.push(
      fc.tuple(validRecordArb(fields), fc.constantFrom(...required), fc.boolean()).map(([data, field, asNull]) => {
        const copy = { ...data };
        if (asNull) copy[field.key] = null;
        else delete copy[field.key];
        return { data: copy, field: field.key, how: asNull ? 'required null' : 'required missing' };
      }),
    );
  }
  return fc.oneof(...kinds);
}

describe('validator properties (random records against random schemas)', () => {
  it('valid records: no issues, and the value round-trips (nulls dropped)', () => {
    fc.assert(
      fc.property(
        schemaArb.chain((fields) => fc.tuple(fc.constant(fields), validRecordArb(fields))),
        ([fields, data]) => {
          const r = validateRecordData(fields, data, 'full');
          expect(r.issues).toEqual([]);
          expect(r.value).toStrictEqual(withoutNulls(data));
          const refs = fields.filter((x) => x.type === 'member_ref' && typeof data[x.key] === 'string').map((x) => data[x.key]);
          expect(new Set(r.memberRefs)).toEqual(new Set(refs));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('records broken in exactly one way: exactly one issue, naming that field, and the field is not accepted', () => {
    fc.assert(
      fc.property(
        schemaArb.chain((fields) => fc.tuple(fc.constant(fields), mutatedRecordArb(fields))),
        ([fields, m]) => {
          const r = validateRecordData(fields, m.data, 'full');
          expect(r.issues, m.how).toHaveLength(1);
          expect(r.issues[0]!.field, m.how).toBe(m.field);
          expect(Object.hasOwn(r.value, m.field), m.how).toBe(false);
        },
      ),
      { numRuns: 600 },
    );
  });

  it('accepts exactly the valid ones (valid and broken records mixed)', () => {
    const arb = schemaArb.chain((fields) =>
      fc.tuple(
        fc.constant(fields),
        fc.oneof(
          validRecordArb(fields).map((data) => ({ data, valid: true })),
          mutatedRecordArb(fields).map(({ data }) => ({ data, valid: false })),
        ),
      ),
    );
    fc.assert(
      fc.property(arb, ([fields, { data, valid }]) => {
        expect(validateRecordData(fields, data, 'full').issues.length === 0).toBe(valid);
      }),
      { numRuns: 400 },
    );
  });

  it('patch: any subset of a valid record, optional fields nulled, is accepted and kept as given', () => {
    const arb = schemaArb.chain((fields) =>
      fc.tuple(fc.constant(fields), validRecordArb(fields), fc.subarray(fields)).map(([fs, full, picked]) => {
        const patch: Record<string, unknown> = {};
        for (const x of picked) if (Object.hasOwn(full, x.key)) patch[x.key] = full[x.key];
        return [fs, patch] as const;
      }),
    );
    fc.assert(
      fc.property(arb, ([fields, patch]) => {
        const r = validateRecordData(fields, patch, 'patch');
        expect(r.issues).toEqual([]);
        expect(r.value).toStrictEqual(patch);
      }),
      { numRuns: 300 },
    );
  });

  it('patch: nulling a required field or one bad value gives exactly one issue on that field', () => {
    const arb = schemaArb.chain((fields) =>
      fc
        .tuple(fc.constant(fields), fc.constantFrom(...fields))
        .chain(([fs, field]) =>
          (field.required ? fc.oneof(fc.constant(null), invalidValueArb(field)) : invalidValueArb(field)).map((v) => [fs, field.key, v] as const),
        ),
    );
    fc.assert(
      fc.property(arb, ([fields, key, v]) => {
        const r = validateRecordData(fields, { [key]: v }, 'patch');
        expect(r.issues.map((i) => i.field)).toEqual([key]);
      }),
      { numRuns: 300 },
    );
  });

  it('e-mails: any case and surrounding spaces are stored as the normalised address; filters match it', () => {
    fc.assert(
      fc.property(emailArb, fc.array(fc.boolean(), { maxLength: 40 }), fc.constantFrom('', ' ', '  '), (email, upper, pad) => {
        const mixed = [...email].map((ch, i) => (upper[i] ? ch.toUpperCase() : ch)).join('');
        const field = f('e', 'email');
        expect(validateRecordData([field], { e: `${pad}${mixed}${pad}` }, 'full').value).toEqual({ e: email });
        expect(encodeFilterValue(field, mixed)).toEqual({ ok: true, value: email });
      }),
    );
  });

  it('filters: the string form of any valid value encodes back to the stored value', () => {
    const arb = schemaArb.chain((fields) => fc.constantFrom(...fields).chain((field) => validValueArb(field).map((v) => [field, v] as const)));
    fc.assert(
      fc.property(arb, ([field, v]) => {
        const r = encodeFilterValue(field, String(v));
        expect(r.ok).toBe(true);
        if (r.ok) expect(r.value === v || (v === 0 && r.value === 0)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('title keys fold the final and lunate sigma to σ, so Greek titles sort the same in any case', () => {
    const fields = [f('t', 'text')];
    const key = (t: string) => titleKeyOf(fields, 't', { t });
    expect(key('ϲ')).toBe(key('Ϲ'));
    expect(key('ΟΔΟΣ')).toBe(key('οδος'));
    expect(key('ςς')).toBe('1#σσ\u0001');
    expect(key('οδός')).toBe(key('ΟΔΌΣ'));
  });

  it('title keys: titled records sort before untitled, case does not matter', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        const fields = [f('t', 'text')];
        const ka = titleKeyOf(fields, 't', { t: a });
        expect(titleKeyOf(fields, 't', { t: a.toUpperCase() })).toBe(titleKeyOf(fields, 't', { t: a.toUpperCase().toLowerCase() }));
        expect(ka <= titleKeyOf(fields, 't', {})).toBe(true);
        if (ka !== '2#' && titleKeyOf(fields, 't', { t: b }) === '2#') expect(ka < '2#').toBe(true);
        expect(ka.length).toBeLessThanOrEqual(2 + 2 * 200 + 1);
      }),
    );
  });
});
