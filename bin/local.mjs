#!/usr/bin/env node
// `npm start`: the local runtime (./local.ts) compiled into one file (./compiled.mjs), or run through
// tsx where that fails. The Node version is checked first, from a file of its own: a compiled file
// links every built-in module it names (node:sqlite among them) before any of its code runs.
import { importCompiled } from './compiled.mjs';

if (!(await importCompiled('bin/node-check.ts')) || !(await importCompiled('bin/local.ts'))) {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./local.ts');
}
