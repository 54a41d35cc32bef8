#!/usr/bin/env node
// `npx loyalty`: the command-line tool. Plain JavaScript so it starts on any Node >= 20; it runs the
// TypeScript sources compiled into one file (./compiled.mjs), or through tsx where that fails.
import { importCompiled } from './compiled.mjs';

// A reader that stops early (`loyalty events list | head -1`) closes the pipe: what is left to print
// has nowhere to go, which is the reader's choice, not a failure of the command.
process.stdout.on('error', (error) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});
const main = (await importCompiled('bin/cli/main.ts'))?.main ?? (await sourceMain());
process.exitCode = await main(process.argv);

async function sourceMain() {
  const { register } = await import('tsx/esm/api');
  register();
  return (await import('./cli/main.ts')).main;
}
