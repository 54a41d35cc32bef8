import { UsageError } from './errors';

/**
 * Asks on the terminal before a change that cannot be taken back; without one (a script), refuses
 * and names --yes. `refused` says what did not happen ("Not revoked").
 */
export async function confirm(question: string, refused: string): Promise<void> {
  if (!process.stdin.isTTY) throw new UsageError(`${refused}: confirm with --yes (no terminal to ask on)`);
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    if (!/^y(es)?$/i.test((await rl.question(question)).trim())) throw new UsageError(refused);
  } finally {
    rl.close();
  }
}

/** A `--timeout` in seconds, as milliseconds (above 0). */
export const timeoutOption = (value: string): number => {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`--timeout must be a number of seconds above 0 (got "${value}")`);
  return n * 1000;
};
