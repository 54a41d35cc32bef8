#!/usr/bin/env node
// `npx loyalty`: the command-line tool. Plain JavaScript so it starts on any Node >= 20; it loads the
// TypeScript sources through tsx, as the local runtime does.
import { register } from 'tsx/esm/api';

register();
// A reader that stops early (`loyalty events list | head -1`) closes the pipe: what is left to print
// has nowhere to go, which is the reader's choice, not a failure of the command.
process.stdout.on('error', (error) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});
const { main } = await import('./cli/main.ts');
process.exitCode = await main(process.argv);
