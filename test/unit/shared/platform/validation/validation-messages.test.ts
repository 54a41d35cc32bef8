import * as z from 'zod';
import { describe, expect, it, vi } from 'vitest';
import { toDetails } from '../../../../../shared/platform/validation/validation';
import { validationMessage } from '../../../../../shared/platform/validation/validation-messages';

/** The messages an integrator reads for each kind of mistake (the map is installed by validation.ts). */
const messages = (schema: z.ZodType, value: unknown) => {
  const parsed = schema.safeParse(value);
  if (parsed.success) throw new Error('expected a failure');
  return Object.fromEntries(toDetails('body', parsed.error).map((d) => [d.field, d.message]));
};

describe('validation messages in one voice', () => {
  const body = z.strictObject({
    name: z.string().min(1).max(3),
    count: z.number().int().min(1).max(10),
    ratio: z.number().gt(0).lt(1),
    kind: z.enum(['earn', 'deduct']),
    exact: z.literal('v1'),
    email: z.email(),
    at: z.iso.datetime({ offset: true }),
    day: z.iso.date(),
    link: z.url(),
    tags: z.array(z.string()).min(2).max(3),
    one: z.array(z.string()).min(1),
    code: z.string().regex(/^[A-Z]+$/),
    prefixed: z.string().startsWith('fl_'),
    step: z.number().multipleOf(5),
    either: z.union([z.string(), z.number()]),
    flag: z.boolean(),
    obj: z.object({}),
    list: z.array(z.number()),
    map: z.record(z.string().max(2), z.number()),
  });

  it('a missing field is "required", whatever its type', () => {
    const m = messages(body, {});
    for (const field of Object.keys(body.shape)) expect(m[field], field).toBe('required');
  });

  it('each kind of wrong value says what to send', () => {
    expect(
      messages(body, {
        name: '',
        count: 0.5,
        ratio: 1,
        kind: 'gift',
        exact: 'v2',
        email: 'nobody',
        at: 'yesterday',
        day: '2026-13-45',
        link: 'not a link',
        tags: ['a'],
        one: [],
        code: 'abc',
        prefixed: 'sk_x',
        step: 7,
        either: true,
        flag: 'yes',
        obj: null,
        list: 'x',
        map: { abc: 1 },
        extra: 1,
      }),
    ).toEqual({
      name: 'must not be empty',
      count: 'must be a whole number',
      ratio: 'must be less than 1',
      kind: 'must be one of: earn, deduct',
      exact: 'must be v1',
      email: 'must be an e-mail address',
      at: 'must be an ISO 8601 date-time with its offset, e.g. 2026-01-31T12:00:00Z',
      day: 'must be a date as YYYY-MM-DD',
      link: 'must be a URL',
      tags: 'must be at least 2 items',
      one: 'must have at least 1 item',
      code: 'must match the pattern /^[A-Z]+$/',
      prefixed: 'must start with "fl_"',
      step: 'must be a multiple of 5',
      either: 'does not match any of the accepted forms (see the API reference)',
      flag: 'must be a boolean (true or false)',
      obj: 'must be an object, not null',
      list: 'must be an array',
      'map.abc': 'must be at most 2 characters',
      extra: 'unknown field',
    });
  });

  it('bounds name their unit', () => {
    expect(messages(body.pick({ name: true }), { name: 'long' })).toEqual({ name: 'must be at most 3 characters' });
    expect(messages(body.pick({ count: true }), { count: 11 })).toEqual({ count: 'must be at most 10' });
    expect(messages(body.pick({ count: true }), { count: 0 })).toEqual({ count: 'must be at least 1' });
    expect(messages(body.pick({ ratio: true }), { ratio: 0 })).toEqual({ ratio: 'must be greater than 0' });
    expect(messages(body.pick({ tags: true }), { tags: ['a', 'b', 'c', 'd'] })).toEqual({ tags: 'must be at most 3 items' });
    expect(messages(z.object({ n: z.string().min(3) }), { n: 'ab' })).toEqual({ n: 'must be at least 3 characters' });
    expect(messages(z.object({ n: z.string().max(1) }), { n: 'ab' })).toEqual({ n: 'must be at most 1 character' });
    expect(messages(z.object({ n: z.array(z.number()).max(1) }), { n: [1, 2] })).toEqual({ n: 'must be at most 1 item' });
    expect(messages(z.object({ n: z.array(z.number()).min(3) }), { n: [] })).toEqual({ n: 'must be at least 3 items' });
  });

  it("a schema's own message still wins", () => {
    expect(messages(z.object({ n: z.string().max(1, { message: 'one letter only' }) }), { n: 'ab' })).toEqual({ n: 'one letter only' });
    expect(messages(z.object({ n: z.string().refine(() => false, { message: 'never valid' }) }), { n: 'x' })).toEqual({ n: 'never valid' });
  });

  it("no message is in the library's own words", () => {
    const all = [...Object.values(messages(body, {})), ...Object.values(messages(body, { name: 5, count: 'x', kind: 1, either: {}, obj: [] }))];
    for (const m of all) expect(m).not.toMatch(/^(Invalid|Too (big|small)|Expected)/);
  });
});

describe('installing the messages', () => {
  it('loading the validation module installs them for every schema of the process', async () => {
    // A process starts with the library's own wording; a fresh load of the module (as in a new
    // Lambda container) must put ours in place before any schema reports a failure.
    z.config({ customError: undefined });
    vi.resetModules();
    try {
      expect(z.string().safeParse(1).error?.issues[0]?.message).toMatch(/^Invalid input/);
      const fresh = await import('../../../../../shared/platform/validation/validation');
      expect(fresh.toDetails('body', z.object({ n: z.string() }).safeParse({ n: 1 }).error!)).toEqual([
        { in: 'body', field: 'n', message: 'must be a string' },
      ]);
    } finally {
      z.config({ customError: validationMessage });
    }
  });
});
