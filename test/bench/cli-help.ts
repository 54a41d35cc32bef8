import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * `loyalty --help` run as `node bin/loyalty.mjs --help`: wall-clock time of a fresh process, the
 * median of `runs` (after one untimed run for the file cache), next to a bare `node -e 0` on the
 * same machine (the floor no CLI can beat). Target: at most 700 ms.
 */

const ENTRY = fileURLToPath(new URL('../../bin/loyalty.mjs', import.meta.url));
const TARGET_MS = 700;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

function timed(args: string[]): number {
  const since = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return Number(process.hrtime.bigint() - since) / 1e6;
}

export function cliHelp(opts: { runs: number }) {
  timed([ENTRY, '--help']);
  const help: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < opts.runs; i++) {
    help.push(timed([ENTRY, '--help']));
    bare.push(timed(['-e', '0']));
  }
  const medianMs = Math.round(median(help));
  return { name: 'cli-help', runs: opts.runs, medianMs, bareNodeMedianMs: Math.round(median(bare)), targetMs: TARGET_MS, meetsTarget: medianMs <= TARGET_MS };
}
