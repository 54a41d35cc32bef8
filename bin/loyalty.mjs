#!/usr/bin/env node
// `npx loyalty`: the command-line tool. Plain JavaScript so it starts on any Node >= 20; it loads the
// TypeScript sources through tsx, as the local runtime does.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('./cli/main.ts');
process.exitCode = await main(process.argv);
