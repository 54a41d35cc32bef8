import { describe, expect, it } from 'vitest';
import { createMemberBody } from '../../../../shared/members';
import { tagMemberBody } from '../../../../shared/tags';
import { checkRow, expiryMonth, headerOf, parsePoints, parseTime, recordOf, splitCsv, type RawRecord, type RowContext } from '../../../../shared/imports/rows';

const NOW = Date.parse('2026-06-15T12:00:00Z');
const ctx: RowContext = { now: NOW, tierKeys: ['bronze', 'silver', 'gold'], profileSchema: createMemberBody, tagsSchema: tagMemberBody };
const rec = (fields: Record<string, unknown>, line = 7): RawRecord => ({ line, fields });
const ms = (iso: string) => Date.parse(iso);

describe('splitCsv', () => {
  it('splits on commas, keeps empty cells, unquotes and unescapes doubled quotes', () => {
    expect(splitCsv('a,b,,d')).toEqual(['a', 'b', '', 'd']);
    expect(splitCsv('')).toEqual(['']);
    expect(splitCsv(',')).toEqual(['', '']);
    expect(splitCsv('"a,b",c')).toEqual(['a,b', 'c']);
    expect(splitCsv('"say ""hi""",x')).toEqual(['say "hi"', 'x']);
    expect(splitCsv('""')).toEqual(['']);
  });
  it('a quote inside an unquoted cell is kept; an unterminated quote is null', () => {
    expect(splitCsv('a"b,c')).toEqual(['a"b', 'c']);
    expect(splitCsv('"abc')).toBeNull();
    expect(splitCsv('x,"a""')).toBeNull();
  });
});

describe('headerOf', () => {
  it('trims the names, drops a byte order mark and a trailing CR', () => {
    expect(headerOf('\uFEFFexternalId, points ,earnedAt\r')).toEqual(['externalId', 'points', 'earnedAt']);
    expect(headerOf('"a')).toBeNull();
  });
});

describe('recordOf', () => {
  it('CSV: fields by header name, trimmed, empty cells left out, a trailing CR dropped', () => {
    expect(recordOf('csv', ' OLD-1 ,,2024-05-01\r', 3, ['externalId', 'email', 'earnedAt'])).toEqual({
      line: 3,
      fields: { externalId: 'OLD-1', earnedAt: '2024-05-01' },
    });
  });
  it('CSV: a line with another number of fields than the header, or an open quote, is refused as a whole', () => {
    expect(recordOf('csv', 'a,b', 4, ['x'])).toEqual({ line: 4, errors: [{ line: 4, field: '(line)', message: 'has 2 fields; the header has 1' }] });
    expect(recordOf('csv', '"a', 5, ['x'])).toEqual({ line: 5, errors: [{ line: 5, field: '(line)', message: 'has a quote that is not closed' }] });
  });
  it('JSON Lines: one object per line; anything else is refused', () => {
    expect(recordOf('jsonl', '{"points":5}', 2, [])).toEqual({ line: 2, fields: { points: 5 } });
    expect(recordOf('jsonl', '{"points":', 2, [])).toEqual({ line: 2, errors: [{ line: 2, field: '(line)', message: 'is not valid JSON' }] });
    for (const text of ['[1]', 'null', '3', '"s"']) {
      expect(recordOf('jsonl', text, 9, [])).toEqual({ line: 9, errors: [{ line: 9, field: '(line)', message: 'must be a JSON object' }] });
    }
  });
});

describe('parseTime', () => {
  it('a date is midnight UTC; a date-time needs its offset', () => {
    expect(parseTime('2024-05-01')).toBe(ms('2024-05-01T00:00:00Z'));
    expect(parseTime('2024-05-01T10:00:00+01:00')).toBe(ms('2024-05-01T09:00:00Z'));
    expect(parseTime('2024-05-01T10:00Z')).toBe(ms('2024-05-01T10:00:00Z'));
    expect(parseTime('2024-05-01T10:00:00.5Z')).toBe(ms('2024-05-01T10:00:00.500Z'));
    expect(parseTime('2024-05-01T10:00:00-02:30')).toBe(ms('2024-05-01T12:30:00Z'));
  });
  it('refuses what is not a real date in those forms', () => {
    for (const v of ['2025-02-30', '2024-13-01', '2024-5-1', '2024-05-01T10:00:00', '01.05.2024', ' 2024-05-01', '2024-05-01x', '', 'x2024-05-01T10:00Z']) {
      expect(parseTime(v), v).toBeNull();
    }
    expect(parseTime(20240501)).toBeNull();
    expect(parseTime(null)).toBeNull();
  });
});

describe('parsePoints', () => {
  it('whole numbers from JSON numbers and CSV digits', () => {
    expect(parsePoints(42)).toBe(42);
    expect(parsePoints('42')).toBe(42);
    expect(parsePoints('-3')).toBe(-3);
    expect(parsePoints(0)).toBe(0);
  });
  it('nothing else', () => {
    for (const v of ['4.5', 4.5, '1e3', ' 4', '', 'abc', null, undefined, true, Number.MAX_SAFE_INTEGER + 1, '9007199254740993'])
      expect(parsePoints(v), String(v)).toBeNull();
  });
});

describe('checkRow: balances', () => {
  const ok = { externalId: 'OLD-1', points: '120', earnedAt: '2024-05-01', expiresAt: '2027-06-30' };
  it('a valid row, by externalId (preferred over the e-mail), or by the e-mail lower-cased', () => {
    expect(checkRow('balances', rec({ ...ok, email: 'x@y.test' }), ctx)).toEqual({
      line: 7,
      row: { kind: 'balances', member: { externalId: 'OLD-1' }, points: 120, earnedAt: ms('2024-05-01T00:00:00Z'), expiresAt: ms('2027-06-30T00:00:00Z') },
    });
    const byEmail = checkRow('balances', rec({ ...ok, externalId: '', email: ' Ada@Example.TEST ' }), ctx);
    expect(byEmail).toMatchObject({ row: { member: { email: 'ada@example.test' } } });
  });
  it('no expiry: a lot without a date', () => {
    expect(checkRow('balances', rec({ ...ok, expiresAt: undefined }), ctx)).toMatchObject({ row: { expiresAt: null } });
    expect(checkRow('balances', rec({ ...ok, expiresAt: null }), ctx)).toMatchObject({ row: { expiresAt: null } });
  });
  it('every wrong field at once, in field order, with the line', () => {
    expect(checkRow('balances', rec({ points: 'abc', earnedAt: 'yesterday', expiresAt: 'soon' }), ctx)).toEqual({
      line: 7,
      errors: [
        { line: 7, field: 'externalId', message: 'give externalId or email of the member' },
        { line: 7, field: 'points', message: 'must be a whole number' },
        { line: 7, field: 'earnedAt', message: 'must be a date (YYYY-MM-DD) or an ISO date-time with offset' },
        { line: 7, field: 'expiresAt', message: 'must be a date (YYYY-MM-DD) or an ISO date-time with offset' },
      ],
    });
  });
  it('points above zero; earnedAt required and not in the future', () => {
    const err = (f: Record<string, unknown>) => (checkRow('balances', rec({ ...ok, ...f }), ctx) as { errors: unknown[] }).errors;
    expect(err({ points: 0 })).toEqual([{ line: 7, field: 'points', message: 'must be more than 0' }]);
    expect(err({ points: -5 })).toEqual([{ line: 7, field: 'points', message: 'must be more than 0' }]);
    expect(checkRow('balances', rec({ ...ok, points: 1 }), ctx)).toMatchObject({ row: { points: 1 } });
    expect(err({ earnedAt: undefined })).toEqual([{ line: 7, field: 'earnedAt', message: 'is required' }]);
    expect(err({ earnedAt: null })).toEqual([{ line: 7, field: 'earnedAt', message: 'is required' }]);
    expect(err({ earnedAt: '2026-06-15T12:00:01Z' })).toEqual([{ line: 7, field: 'earnedAt', message: 'is in the future' }]);
    expect(checkRow('balances', rec({ ...ok, earnedAt: '2026-06-15T12:00:00Z' }), ctx)).toMatchObject({ row: { earnedAt: NOW } });
  });
  it('expiresAt after now and after earnedAt', () => {
    const err = (f: Record<string, unknown>) => (checkRow('balances', rec({ ...ok, ...f }), ctx) as { errors: unknown[] }).errors;
    expect(err({ expiresAt: '2026-06-15T12:00:00Z' })).toEqual([{ line: 7, field: 'expiresAt', message: 'is in the past: expired points are not imported' }]);
    expect(checkRow('balances', rec({ ...ok, expiresAt: '2026-06-15T12:00:00.001Z' }), ctx)).toMatchObject({ row: { expiresAt: NOW + 1 } });
    // An expiry after now but not after a (future) earn date.
    const early = (f: Record<string, unknown>) => checkRow('balances', rec({ ...ok, earnedAt: '2026-07-01', ...f }), ctx);
    expect(early({ expiresAt: '2026-07-01' })).toEqual({
      line: 7,
      errors: [
        { line: 7, field: 'earnedAt', message: 'is in the future' },
        { line: 7, field: 'expiresAt', message: 'must be after earnedAt' },
      ],
    });
    expect((early({ expiresAt: '2026-07-01T00:00:00.001Z' }) as { errors: unknown[] }).errors).toEqual([
      { line: 7, field: 'earnedAt', message: 'is in the future' },
    ]);
    expect(checkRow('balances', rec({ ...ok, earnedAt: 'bad', expiresAt: '2027-01-01' }), ctx)).toEqual({
      line: 7,
      errors: [{ line: 7, field: 'earnedAt', message: 'must be a date (YYYY-MM-DD) or an ISO date-time with offset' }],
    });
  });
});

describe('checkRow: tiers', () => {
  const ok = { email: 'a@b.test', tier: 'gold', qualifiedAt: '2025-03-01', retainedUntil: '2027-03-01' };
  it('a valid row', () => {
    expect(checkRow('tiers', rec(ok), ctx)).toEqual({
      line: 7,
      row: { kind: 'tiers', member: { email: 'a@b.test' }, tier: 'gold', qualifiedAt: ms('2025-03-01T00:00:00Z'), retainedUntil: ms('2027-03-01T00:00:00Z') },
    });
    expect(checkRow('tiers', rec({ ...ok, retainedUntil: ok.qualifiedAt }), ctx)).toMatchObject({ row: { retainedUntil: ms('2025-03-01T00:00:00Z') } });
  });
  it('the tier is one of the program, the dates in order, qualifiedAt not in the future', () => {
    const err = (f: Record<string, unknown>) => (checkRow('tiers', rec({ ...ok, ...f }), ctx) as { errors: unknown[] }).errors;
    expect(err({ tier: 'diamond' })).toEqual([{ line: 7, field: 'tier', message: 'is not a tier of the program (bronze, silver, gold)' }]);
    expect(err({ tier: '' })).toEqual([{ line: 7, field: 'tier', message: 'is required' }]);
    expect(err({ tier: 3 })).toEqual([{ line: 7, field: 'tier', message: 'is required' }]);
    expect(err({ retainedUntil: '2025-02-28' })).toEqual([{ line: 7, field: 'retainedUntil', message: 'must not be before qualifiedAt' }]);
    expect(err({ qualifiedAt: '2026-06-16' })).toEqual([{ line: 7, field: 'qualifiedAt', message: 'is in the future' }]);
    expect(err({ qualifiedAt: undefined, retainedUntil: undefined, email: undefined })).toEqual([
      { line: 7, field: 'externalId', message: 'give externalId or email of the member' },
      { line: 7, field: 'qualifiedAt', message: 'is required' },
      { line: 7, field: 'retainedUntil', message: 'is required' },
    ]);
  });
});

describe('checkRow: members', () => {
  it('the profile, custom attributes from `attr.` columns and an object, tags split on `;`', () => {
    expect(
      checkRow(
        'members',
        rec({
          externalId: 'OLD-1',
          email: 'Ada@Example.test',
          firstName: 'Ada',
          'attr.favourite': 'espresso',
          customAttributes: { size: 'L' },
          tags: 'vip; newsletter;;',
        }),
        ctx,
      ),
    ).toEqual({
      line: 7,
      row: {
        kind: 'members',
        profile: { externalId: 'OLD-1', email: 'ada@example.test', firstName: 'Ada', customAttributes: { size: 'L', favourite: 'espresso' } },
        tags: ['vip', 'newsletter'],
      },
    });
    expect(checkRow('members', rec({ email: 'a@b.test', tags: ['x'] }), ctx)).toEqual({
      line: 7,
      row: { kind: 'members', profile: { email: 'a@b.test' }, tags: ['x'] },
    });
    expect(checkRow('members', rec({ email: 'a@b.test' }), ctx)).toEqual({ line: 7, row: { kind: 'members', profile: { email: 'a@b.test' }, tags: [] } });
  });
  it('unknown fields, the members API refusals by field, and bad tags', () => {
    const out = checkRow('members', rec({ email: 'nope', phone: 'call me', shoe: '42', tags: ['Not A Tag!'] }), ctx) as { errors: { field: string }[] };
    expect(out.errors.map((e) => e.field)).toEqual(['shoe', 'email', 'phone', 'tags.0']);
    expect(out.errors[0]).toEqual({ line: 7, field: 'shoe', message: 'is not a member field' });
    const none = checkRow('members', rec({ firstName: 'Ada' }), ctx) as { errors: { field: string; message: string }[] };
    expect(none.errors).toEqual([{ line: 7, field: 'email', message: 'give email or externalId (or both)' }]);
  });
  it('a record refused as a whole stays refused', () => {
    const refused: RawRecord = { line: 3, errors: [{ line: 3, field: '(line)', message: 'is not valid JSON' }] };
    expect(checkRow('members', refused, ctx)).toBe(refused);
    expect(checkRow('tiers', refused, ctx)).toBe(refused);
  });
});

describe('expiryMonth', () => {
  it('YYYY-MM in UTC, or never', () => {
    expect(expiryMonth(ms('2027-06-30T23:59:59Z'))).toBe('2027-06');
    expect(expiryMonth(ms('2027-07-01T00:00:00Z'))).toBe('2027-07');
    expect(expiryMonth(null)).toBe('never');
  });
});

describe('the edges of a row', () => {
  it('only text is a time: something that reads as one when turned to text is not', () => {
    expect(parseTime(['2024-05-01T10:00Z'])).toBeNull();
    expect(parseTime(20240501)).toBeNull();
  });

  it('points are a number or digits, not a list of them', () => {
    expect(parsePoints([5])).toBeNull();
    expect(parsePoints('12')).toBe(12);
  });

  it('an empty e-mail names no member', () => {
    const row = checkRow('balances', rec({ email: '', points: 5, earnedAt: '2024-05-01' }), ctx);
    expect(row).toEqual({ line: 7, errors: [{ line: 7, field: 'externalId', message: 'give externalId or email of the member' }] });
  });

  it('a tier qualified exactly now is not in the future', () => {
    const row = checkRow('tiers', rec({ externalId: 'A', tier: 'gold', qualifiedAt: new Date(NOW).toISOString(), retainedUntil: '2027-01-01' }), ctx);
    expect(row).toMatchObject({ row: { kind: 'tiers', qualifiedAt: NOW } });
  });

  it('a member row holds only the fields it was given; customAttributes that are not an object add none', () => {
    const row = checkRow('members', rec({ email: 'a@example.com', customAttributes: 'abc' }), ctx) as { row: { profile: Record<string, unknown> } };
    expect(Object.keys(row.row.profile)).toEqual(['email']);
  });

  it('a header keeps a byte order mark or a CR that is not at its edge', () => {
    expect(headerOf('x\uFEFFy,z')).toEqual(['x\uFEFFy', 'z']);
    expect(headerOf('a\rb,c')).toEqual(['a\rb', 'c']);
  });

  it('a CRLF line: the CR ends the last cell, quoted or not', () => {
    expect(recordOf('csv', 'x,"y"\r', 1, ['a', 'b'])).toEqual({ line: 1, fields: { a: 'x', b: 'y' } });
  });
});
