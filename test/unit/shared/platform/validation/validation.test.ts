import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { AppError } from '../../../../../shared/platform/errors';
import { DEFAULT_PAGE_SIZE, filterValue, MAX_PAGE_SIZE, pageQuery, pageQueryShape } from '../../../../../shared/platform/validation/pagination';
import { parseOrThrow, toDetails } from '../../../../../shared/platform/validation/validation';

const schema = z.strictObject({
  name: z
    .string()
    .min(3, 'at least 3 characters')
    .regex(/^[a-z]+$/, 'lower-case letters only'),
  n: z.number().optional(),
});

describe('request validation details', () => {
  it('the first message for a path wins', () => {
    const r = schema.safeParse({ name: 'AB' });
    expect(r.error!.issues.map((i) => i.message)).toEqual(['at least 3 characters', 'lower-case letters only']);
    expect(toDetails('body', r.error!)).toEqual([{ in: 'body', field: 'name', message: 'at least 3 characters' }]);
  });

  it('unknown keys are reported one by one as "unknown field", under their own path', () => {
    const nested = z.strictObject({ inner: z.strictObject({ a: z.number() }) });
    const r = nested.safeParse({ inner: { a: 1, x: 1, y: 2 } });
    expect(toDetails('query', r.error!)).toEqual([
      { in: 'query', field: 'inner.x', message: 'unknown field' },
      { in: 'query', field: 'inner.y', message: 'unknown field' },
    ]);
  });

  it('parseOrThrow returns the parsed value, or throws a 422 with the details', () => {
    expect(parseOrThrow(schema, { name: 'abc', n: 1 }, 'body')).toEqual({ name: 'abc', n: 1 });
    expect(() => parseOrThrow(schema, { name: 'abc', n: 'x', extra: true }, 'body')).toThrow(
      expect.objectContaining({
        status: 422,
        code: 'VALIDATION_FAILED',
        details: [
          { in: 'body', field: 'n', message: expect.any(String) },
          { in: 'body', field: 'extra', message: 'unknown field' },
        ],
      }),
    );
    expect(() => parseOrThrow(schema, {}, 'body')).toThrow(AppError);
  });
});

describe('page query', () => {
  it('limit: 1-200, default 50; cursor: 1-2048 characters, optional', () => {
    expect(pageQuery.parse({})).toEqual({ limit: DEFAULT_PAGE_SIZE });
    expect(pageQuery.parse({ limit: '200', cursor: 'c'.repeat(2048) })).toEqual({ limit: MAX_PAGE_SIZE, cursor: 'c'.repeat(2048) });
    expect(pageQuery.parse({ cursor: 'ab' })).toEqual({ limit: 50, cursor: 'ab' });
    for (const bad of [{ limit: '0' }, { limit: '201' }, { limit: '1.5' }, { cursor: '' }, { cursor: 'c'.repeat(2049) }, { other: 1 }]) {
      expect(pageQuery.safeParse(bad).success, JSON.stringify(bad).slice(0, 40)).toBe(false);
    }
  });

  it('the parameters carry the descriptions the OpenAPI document shows', () => {
    expect(pageQueryShape.limit.description).toBe('Page size, 1-200 (default 50)');
    expect(pageQueryShape.cursor.description).toBe('The `nextCursor` of the previous page');
  });
});

describe('list filter values', () => {
  it('absent is no filter; empty is refused with its own message; 64 characters by default, or the given bound', () => {
    expect(filterValue().optional().parse(undefined)).toBeUndefined();
    expect(filterValue().parse('a')).toBe('a');
    expect(filterValue().parse('x'.repeat(64))).toBe('x'.repeat(64));
    expect(filterValue().safeParse('x'.repeat(65)).success).toBe(false);
    expect(filterValue(3).safeParse('abcd').success).toBe(false);
    expect(filterValue(3).parse('abc')).toBe('abc');
    const empty = filterValue().safeParse('');
    expect(empty.success).toBe(false);
    expect(empty.error?.issues[0]?.message).toBe('must not be empty');
  });
});

describe('details of a key that fails its own schema (invalid_key)', () => {
  it('names the key check that failed, not zod’s generic message', () => {
    const schema = z.record(z.string().regex(/^[a-z]+$/, { message: 'keys are lower-case letters' }), z.string());
    const result = schema.safeParse({ Bad: 'x' });
    expect(result.success).toBe(false);
    expect(toDetails('body', result.error!)).toEqual([{ in: 'body', field: 'Bad', message: 'keys are lower-case letters' }]);
  });
});

describe('every detail names a field', () => {
  it('an issue of the whole names the location (or the root given)', () => {
    const body = z.strictObject({ a: z.string().optional() }).refine((b) => Object.keys(b).length > 0, { message: 'give at least one field' });
    const error = body.safeParse({}).error!;
    expect(toDetails('body', error)).toEqual([{ in: 'body', field: 'body', message: 'give at least one field' }]);
    expect(toDetails('query', error)).toEqual([{ in: 'query', field: 'query', message: 'give at least one field' }]);
    expect(toDetails('body', error, 'arguments')).toEqual([{ in: 'body', field: 'arguments', message: 'give at least one field' }]);
    expect(toDetails('body', z.object({}).safeParse([]).error!)[0]!.field).toBe('body');
    // A nested issue keeps its path.
    expect(toDetails('body', z.object({ a: z.object({ b: z.number() }) }).safeParse({ a: { b: 'x' } }).error!)[0]!.field).toBe('a.b');
  });

  it('numbers in a query string are plain decimal integers', () => {
    const q = z.strictObject(pageQueryShape);
    for (const bad of ['0x10', '1e1', ' 16', '16 ', '', '+5', '016', '1.0', '0b1', 'Infinity', '99999999999999999']) {
      const r = q.safeParse({ limit: bad });
      expect(r.success, bad).toBe(false);
      expect(toDetails('query', r.error!)).toEqual([{ in: 'query', field: 'limit', message: 'must be a decimal integer such as 50' }]);
    }
    expect(q.parse({ limit: '16' }).limit).toBe(16);
    expect(q.parse({ limit: '200' }).limit).toBe(200);
    expect(q.parse({}).limit).toBe(DEFAULT_PAGE_SIZE);
    expect(q.safeParse({ limit: '0' }).success).toBe(false);
    expect(q.safeParse({ limit: '-1' }).success).toBe(false);
    expect(q.safeParse({ limit: String(MAX_PAGE_SIZE + 1) }).success).toBe(false);
  });
});
