import type { Command } from 'commander';
import { Client } from './client';
import { Output } from './output';
import type { GlobalOptions } from './settings';

/** What every command's action works with: the API client and the output, from the global options. */
export function contextOf(cmd: Command): { client: Client; out: Output; globals: GlobalOptions } {
  const globals = cmd.optsWithGlobals<GlobalOptions>();
  return { client: new Client(globals), out: new Output(globals.json === true), globals };
}

/** Resolves on the first SIGINT or SIGTERM: how `--follow` and `listen` end. */
export const interrupted = (): Promise<NodeJS.Signals> =>
  new Promise((resolve) => {
    const on = (signal: NodeJS.Signals) => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
      resolve(signal);
    };
    process.on('SIGINT', on);
    process.on('SIGTERM', on);
  });
