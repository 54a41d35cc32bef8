/**
 * Stand-ins for the zod members the Lambda bundles leave out (see ./index.ts): zod's
 * `v4/core/compile.js` (about 30 KiB) and `v4/classic/from-json-schema.js` (about 12 KiB).
 * Calling one throws; the constants and error classes keep their names and shapes.
 */
const leftOut =
  (name: string) =>
  (..._args: unknown[]): never => {
    throw new Error(
      `z.${name} is left out of the Lambda bundles (infra/bundling/zod/index.ts); ` +
        'remove it from left-out.ts and accept the larger bundles to use it in a function',
    );
  };

export const compile = leftOut('compile');
export const compileFn = leftOut('core.compileFn');
export const withParser = leftOut('withParser');
export const fromJSONSchema = leftOut('fromJSONSchema');

/** Same value as zod's (`Symbol.for`). */
export const INVALID = Symbol.for('zod.compile.invalid');

export class ZodCompileAsyncError extends Error {
  constructor(message = 'z.compile does not support async refinements, transforms, or checks') {
    super(message);
    this.name = 'ZodCompileAsyncError';
  }
}

export class ZodCompileUnsupportedError extends Error {
  readonly islandable: boolean;
  constructor(feature: string, islandable = true) {
    super(`z.compile does not support ${feature}; this schema must use the runtime parser`);
    this.name = 'ZodCompileUnsupportedError';
    this.islandable = islandable;
  }
}
