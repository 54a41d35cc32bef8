import * as z from 'zod';

/**
 * Bundled by bundle-budget.test.ts with the options of the functions, and imported by a plain
 * `node` process: zod as tree-shaken into a Lambda bundle (English locale only). The test compares
 * its issues, messages and JSON Schema with the same module run on the real package.
 */

/** Issues and messages of invalid inputs, covering the checks the contracts use. */
export function failures() {
  const cases: [z.ZodType, unknown][] = [
    [z.string(), undefined],
    [z.string().min(3), 'ab'],
    [z.string().max(2), 'abc'],
    [z.string().length(2), 'abc'],
    [z.string().regex(/^x/), 'y'],
    [z.string().trim().min(1, 'name is required'), '  '],
    [z.email(), 'nope'],
    [z.url(), 'nope'],
    [z.uuid(), 'x'],
    [z.iso.datetime(), 'yesterday'],
    [z.iso.date(), '2024-13-45'],
    [z.number(), 'NaN'],
    [z.number().int().min(1), 0.5],
    [z.number().max(10), 11],
    [z.number().positive(), 0],
    [z.coerce.number().int(), 'abc'],
    [z.boolean(), 'true'],
    [z.null(), 1],
    [z.enum(['a', 'b']), 'c'],
    [z.literal('x'), 'y'],
    [z.array(z.string()).min(1), []],
    [z.array(z.string()).max(1), [1, 2]],
    [z.object({ a: z.string(), b: z.number().optional() }), { b: 'x' }],
    [z.strictObject({ a: z.string() }), { a: 'x', b: 2, c: 3 }],
    [z.record(z.string(), z.number()), { a: 'x' }],
    [z.union([z.string(), z.number()]), null],
    [z.discriminatedUnion('kind', [z.object({ kind: z.literal('a') }), z.object({ kind: z.literal('b'), n: z.number() })]), { kind: 'c' }],
    [z.unknown().refine(() => false, 'custom message'), 1],
    [z.object({ nested: z.array(z.object({ id: z.string() })) }), { nested: [{ id: 1 }] }],
  ];
  return cases.map(([schema, input]) => {
    const result = schema.safeParse(input);
    return { issues: result.error?.issues, message: result.error?.message, pretty: result.error && z.prettifyError(result.error) };
  });
}

/** JSON Schema of a small schema (the OpenAPI document and the webhook catalog use `z.toJSONSchema`). */
export function jsonSchema() {
  return z.toJSONSchema(
    z.strictObject({ id: z.string().min(1), email: z.email(), kind: z.enum(['a', 'b']), at: z.iso.datetime(), n: z.number().int().optional() }),
    { target: 'draft-2020-12' },
  );
}
