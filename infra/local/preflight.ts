/**
 * Checks the local runtime makes before it starts anything: one instance per DATA_DIR (a lock file),
 * the HTTP port is free, and a DynamoDB Local JVM left behind by a runtime that was killed is stopped.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { say } from './log-output';

/** A start-up failure with a message meant for a person: printed as is, without a stack trace. */
export class StartupError extends Error {
  override name = 'StartupError';
}

/** Whether `pid` runs (a zombie, dead but not yet reaped, does not count). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    return !/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

/** The arguments of a live process from /proc (Linux), or undefined. */
function procArgs(pid: number): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return undefined;
  }
}

/** The command line of a live process, or undefined where it cannot be read. */
function commandLine(pid: number): string | undefined {
  const args = procArgs(pid);
  if (args) return args.join(' ');
  try {
    return execFileSync('ps', ['-o', 'command=', '-p', String(pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || undefined;
  } catch {
    return undefined;
  }
}

interface LockContent {
  pid: number;
  port?: number;
  dynamodbPid?: number;
}

function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

/** Whether `pid` is a local runtime that is still running (and not a recycled pid of something else). */
function isRuntime(pid: unknown): pid is number {
  if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0 || pid === process.pid || !isAlive(pid)) return false;
  const cmd = commandLine(pid);
  // bin/local.mjs (npm start), or bin/local.ts run through tsx.
  return cmd === undefined || /bin\/local\.m?[jt]s\b/.test(cmd);
}

/**
 * Replaces `file` whole: written next to it, then renamed over it. A reader (a second start reading
 * the lock, a test reading `runtime.json` while the supervisor records a restarted JVM) sees the old
 * content or the new one, never an empty or half-written file.
 */
export function writeFileAtomic(file: string, text: string): void {
  const next = `${file}.${process.pid}.tmp`;
  writeFileSync(next, text);
  renameSync(next, file);
}

export interface InstanceLock {
  /** Records what a later start needs to name this instance or clean up after it. */
  update(fields: Partial<Omit<LockContent, 'pid'>>): void;
  release(): void;
  /** Pids of the previous holder, when its lock was taken over (it had died). */
  previous?: LockContent;
}

/**
 * Takes `dataDir/runtime.lock` (created exclusively, holding our pid and port). A lock whose pid is
 * a live runtime means another instance uses this DATA_DIR: refused, naming it. A lock of a dead
 * process is stale and taken over.
 */
export function acquireLock(dataDir: string, port: number): InstanceLock {
  const file = join(dataDir, 'runtime.lock');
  let content: LockContent = { pid: process.pid, port };
  let previous: LockContent | undefined;
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(file, JSON.stringify(content), { flag: 'wx' });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 3) throw err;
    }
    const held = readJson<LockContent>(file);
    if (held && isRuntime(held.pid)) {
      throw new StartupError(
        `Another local runtime already uses DATA_DIR ${dataDir} (pid ${held.pid}, ${held.port ? `port ${held.port}, http://127.0.0.1:${held.port}` : 'port not chosen yet: still starting'}): ` +
          `stop it first (kill ${held.pid}) or set DATA_DIR to another directory.`,
      );
    }
    previous ??= held;
    try {
      unlinkSync(file); // stale: its runtime is gone
    } catch {
      // someone else removed it first; try again
    }
  }
  let released = false;
  return {
    previous,
    update(fields) {
      if (released) return;
      content = { ...content, ...fields };
      writeFileAtomic(file, JSON.stringify(content));
    },
    release() {
      if (released) return;
      released = true;
      try {
        if (readJson<LockContent>(file)?.pid === process.pid) unlinkSync(file);
      } catch {
        // already gone
      }
    },
  };
}

/** The one line to print when the HTTP port cannot be had. */
export function portProblem(err: unknown, port: number): StartupError | undefined {
  const code = (err as NodeJS.ErrnoException)?.code;
  if (code === 'EADDRINUSE') {
    return new StartupError(
      `Port ${port} is in use: stop what is using it, or set PORT=${port === 65535 ? port - 1 : port + 1} (or PORT=0 for any free port).`,
    );
  }
  if (code === 'EACCES') return new StartupError(`Port ${port} needs privileges: set PORT to a number from 1024 up (or PORT=0 for any free port).`);
  return undefined;
}

export function parsePort(raw: string | undefined): number {
  const port = Number(raw ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535 || (raw !== undefined && raw.trim() === '')) {
    throw new StartupError(`PORT=${raw} is not a port number: use 0-65535 (0 picks a free port).`);
  }
  return port;
}

/** Fails with a one-line StartupError if `port` cannot be listened on at 127.0.0.1 (0 always can). */
export async function checkPortFree(port: number): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (err) => reject(portProblem(err, port) ?? err));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve()));
  });
}

/** Whether `pid` is DynamoDB Local with exactly `dbPath` as its data directory. */
function servesDataDir(pid: number, dbPath: string): boolean {
  const args = procArgs(pid);
  if (args) {
    const at = args.indexOf('-dbPath');
    return at >= 0 && args[at + 1] === dbPath && args.some((a) => a.endsWith('DynamoDBLocal.jar'));
  }
  const cmd = commandLine(pid);
  return !!cmd && cmd.includes('DynamoDBLocal.jar') && (cmd.includes(`-dbPath ${dbPath} `) || cmd.endsWith(`-dbPath ${dbPath}`));
}

/**
 * Stops a DynamoDB Local JVM that an earlier runtime on this DATA_DIR left running (it was killed
 * and could not stop its child). Its pid comes from runtime.json or the stale lock, (on Linux, also
 * found by scanning /proc), and is only stopped if it really is DynamoDB Local serving this data
 * directory. Returns the pid it stopped.
 */
export async function stopOrphanedDynamo(dataDir: string, previousLock?: LockContent): Promise<number[]> {
  const dbPath = join(dataDir, 'dynamodb');
  const runtime = readJson<{ pid?: number; dynamodbPid?: number }>(join(dataDir, 'runtime.json'));
  const candidates = new Set([runtime?.dynamodbPid, previousLock?.dynamodbPid].filter((p): p is number => typeof p === 'number' && p > 0));
  // On Linux also any DynamoDB Local on this data directory that nothing recorded (its runtime was
  // killed before it wrote the pid down): we hold the lock, so no live runtime owns it.
  try {
    for (const name of readdirSync('/proc')) if (/^\d+$/.test(name)) candidates.add(Number(name));
  } catch {
    // no /proc: only the recorded pids
  }
  const stopped: number[] = [];
  for (const pid of candidates) {
    if (pid === process.pid || !isAlive(pid) || !servesDataDir(pid, dbPath)) continue;
    say.warn(`Stopping DynamoDB Local (pid ${pid}) left running on ${dataDir} by a runtime that did not stop cleanly`);
    process.kill(pid, 'SIGTERM');
    const deadline = Date.now() + 5000;
    while (isAlive(pid) && Date.now() < deadline) await sleep(50);
    if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    while (isAlive(pid) && Date.now() < deadline + 5000) await sleep(50);
    stopped.push(pid);
  }
  return stopped;
}
