import { spawn, type ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { inject } from 'vitest';

const ENTRY = resolve(import.meta.dirname, '../../bin/loyalty.mjs');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  env?: Record<string, string | undefined>;
  stdin?: string;
}

// A folder that does not exist: no stored session unless a test gives its own.
const NO_CONFIG = join(tmpdir(), `loyalty-cli-no-config-${process.pid}`);

/** The environment of one invocation: the test platform's base URL, nothing inherited that could sign it in. */
function envOf(opts: CliOptions): NodeJS.ProcessEnv {
  const env: Record<string, string | undefined> = {
    ...process.env,
    LOYALTY_BASE_URL: inject('baseUrl'),
    LOYALTY_API_KEY: undefined,
    LOYALTY_SESSION_TOKEN: undefined,
    LOYALTY_CONFIG_DIR: NO_CONFIG,
    ...opts.env,
  };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
  return env;
}

const spawnCli = (args: readonly string[], opts: CliOptions) =>
  spawn(process.execPath, [ENTRY, ...args], { env: envOf(opts), stdio: [opts.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });

/** Runs the real `loyalty` entry (bin/loyalty.mjs) as a child process to its end. */
export async function cli(args: readonly string[], opts: CliOptions = {}): Promise<CliRun> {
  const child = spawnCli(args, opts);
  if (opts.stdin !== undefined) child.stdin!.end(opts.stdin);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((r) => child.once('close', (c) => r(c)));
  return { code, stdout, stderr };
}

/** A `loyalty` command that keeps running (--follow, listen): read its output as it comes, then stop it. */
export function startCli(args: readonly string[], opts: CliOptions = {}) {
  const child: ChildProcess = spawnCli(args, opts);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const closed = new Promise<number | null>((r) => child.once('close', (c) => r(c)));
  return {
    output: () => stdout,
    async waitForOutput(pattern: RegExp, timeoutMs = 60_000): Promise<RegExpMatchArray> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const m = stdout.match(pattern);
        if (m) return m;
        if (child.exitCode !== null || Date.now() > deadline) throw new Error(`no ${pattern} in the output (exit ${child.exitCode}):\n${stdout}\n${stderr}`);
        await sleep(50);
      }
    },
    async stop(signal: NodeJS.Signals = 'SIGINT'): Promise<CliRun> {
      if (child.exitCode === null) child.kill(signal);
      const code = await closed;
      return { code, stdout, stderr };
    },
  };
}
