import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import base from '../../vitest.config';

// Mutation testing runs the unit project only: the vitest runner has no project filter, so this
// config takes the unit project's settings from the main config and runs them on their own.
type InlineProject = { test?: { name?: string } & Record<string, unknown> };
const unit = (base.test?.projects ?? []).find((p): p is InlineProject => typeof p === 'object' && p !== null && (p as InlineProject).test?.name === 'unit');
if (!unit?.test) throw new Error('vitest.config.ts has no inline "unit" project');
const { name: _name, ...unitTest } = unit.test;

export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  // The generated-file check compares committed types with a generator run; in the sandbox the
  // instrumented modules build the document the types come from, so it says nothing of a mutant.
  // The frozen-store file waits out request time-outs (30 s, two thirds of the unit suite) and pins
  // the client's deadlines, none of the mutated modules: a static mutant re-runs the whole suite,
  // and with it each one took three times as long.
  // One module graph per worker: a static mutant re-runs the whole unit suite, and importing it anew
  // per file was two thirds of that run (44 s against 124 s on two busy cores).
  test: {
    ...unitTest,
    isolate: false,
    exclude: ['**/node_modules/**', 'test/unit/infra/build/docs/client-types.test.ts', 'test/unit/shared/platform/data/store-frozen.test.ts'],
  },
});
