import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startDynamoLocal } from '../../infra/local/dynamodb-local';
import { ensureWalletCredentials, WALLET_FILES } from '../../infra/local/wallet-credentials';

export interface RuntimeInfo {
  pid: number;
  /** Absent when the runtime uses shared stores (the JVM is not its own). */
  dynamodbPid: number;
  port: number;
  dynamodbEndpoint: string;
  s3Endpoint: string;
  tableName: string;
  /** The local queue emulation's SQLite file (`LOCAL_QUEUE_DB`). */
  queueDatabase: string;
}

export interface RunningPlatform {
  baseUrl: string;
  dataDir: string;
  child: ChildProcess;
  /** Everything the runtime printed so far. */
  output(): string;
  runtime(): Promise<RuntimeInfo>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  startupMs: number;
}

/** A DynamoDB Local and an s3rver already running (test/support/global-setup.ts starts one of each per run). */
export interface SharedStores {
  dynamodbEndpoint: string;
  /** Absent: the runtime starts its own s3rver (in its process; for a test that deletes a bucket). */
  s3Endpoint?: string;
}

const ROOT = resolve(import.meta.dirname, '../..');

/**
 * A DynamoDB Local that keeps its data in memory, in a temp dir of its own that `stop` removes. A
 * JVM start on a busy machine can take long: the caller's own limit is the one that counts.
 */
async function memoryDynamo(): Promise<{ endpoint: string; stop(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'loyalty-dynamodb-'));
  const removeDir = () => rm(dir, { recursive: true, force: true });
  const dynamo = await startDynamoLocal(dir, { timeoutMs: 100_000, inMemory: true }).catch(async (error: unknown) => {
    await removeDir();
    throw error;
  });
  return {
    endpoint: dynamo.endpoint,
    stop: async () => {
      await dynamo.stop();
      await removeDir();
    },
  };
}

/**
 * An in-memory DynamoDB Local and an s3rver (in a temp dir `stop` removes): the test run's shared
 * stores (test/support/global-setup.ts) and the benchmarks' with `BENCH_STORE=memory`.
 */
export async function startStores(): Promise<{ stores: Required<SharedStores>; stop(): Promise<void> }> {
  // Loaded here: s3rver and its server stack are not for every file that imports this module.
  const { startS3rver } = await import('../../infra/local/object-store');
  const s3Dir = await mkdtemp(join(tmpdir(), 'loyalty-s3-'));
  const started = await Promise.allSettled([memoryDynamo(), startS3rver(s3Dir)]);
  const [dynamo, s3] = started.map((r) => (r.status === 'fulfilled' ? r.value : undefined));
  const stop = async () => {
    await Promise.all([dynamo?.stop(), s3?.stop()]);
    await rm(s3Dir, { recursive: true, force: true });
  };
  if (!dynamo || !s3) {
    await stop();
    throw started.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []))[0];
  }
  return { stores: { dynamodbEndpoint: dynamo.endpoint, s3Endpoint: s3.endpoint }, stop };
}

/**
 * A DynamoDB Local of one test file (in memory), with the run's s3rver: for files whose subject is
 * exact counts under bursts or DynamoDB Local itself, measured away from the other files' load on
 * the run's shared JVM. `stop` in the file's afterAll.
 */
export async function storesOfOwn(shared: SharedStores): Promise<{ stores: SharedStores; stop(): Promise<void> }> {
  const dynamo = await memoryDynamo();
  return { stores: { ...shared, dynamodbEndpoint: dynamo.endpoint }, stop: dynamo.stop };
}

/**
 * The store part of a runtime's environment. With shared stores the runtime starts no JVM of its
 * own and keeps its data in a table named after its DATA_DIR (the same again on a restart with that
 * directory), so runtimes sharing one JVM never see each other's items or stream records. Without,
 * any endpoint inherited from this process is removed: the runtime starts its own, as `npm start` does.
 */
function storeEnv(dataDir: string, stores: SharedStores | undefined): Record<string, string | undefined> {
  if (!stores) return { DYNAMODB_ENDPOINT: undefined, S3_ENDPOINT: undefined, TABLE_NAME: undefined };
  return { DYNAMODB_ENDPOINT: stores.dynamodbEndpoint, S3_ENDPOINT: stores.s3Endpoint, TABLE_NAME: `loyalty-${basename(dataDir)}` };
}

function childEnv(dataDir: string, stores: SharedStores | undefined, env: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const all: Record<string, string | undefined> = {
    ...process.env,
    PORT: '0',
    DATA_DIR: dataDir,
    POWERTOOLS_LOG_LEVEL: 'WARN',
    // Test runtimes hash passwords at the lowest cost a local runtime accepts: hundreds of sign-ups
    // per run at the static cost took over a minute of CPU (test/unit/shared/auth/password-cost.test.ts pins both).
    PASSWORD_SCRYPT_N: '1024',
    // Request budgets far above what any test sends per workspace: the budgets have their own tests
    // (test/e2e/request-budget.test.ts, one of them on the real defaults), which pass their own.
    WORKSPACE_READ_PER_SECOND: '100000',
    WORKSPACE_WRITE_PER_SECOND: '100000',
    SANDBOX_READ_PER_SECOND: '100000',
    SANDBOX_WRITE_PER_SECOND: '100000',
    ...storeEnv(dataDir, stores),
    ...env,
  };
  for (const [k, v] of Object.entries(all)) if (v === undefined) delete all[k];
  return all;
}

/** Development wallet credentials made once per version of their generator, shared by the test runtimes. */
function testWalletCredentials(): string {
  const generator = readFileSync(join(ROOT, 'infra/local/wallet-credentials.ts'));
  const dir = join(tmpdir(), `loyalty-test-wallet-${createHash('sha256').update(generator).digest('hex').slice(0, 12)}`);
  if (existsSync(join(dir, WALLET_FILES.identifiers))) return dir;
  // Made aside and renamed into place; a parallel worker that won the race keeps its set.
  const own = `${dir}.${process.pid}`;
  ensureWalletCredentials(own);
  try {
    renameSync(own, dir);
  } catch {
    rmSync(own, { recursive: true, force: true });
  }
  return dir;
}

/**
 * Starts the real local runtime (`bin/local.ts`, what `npm start` runs) as a child process on a
 * free port with its own DATA_DIR, and waits for its "Listening on" line. With `stores` it uses
 * those (only the light node process starts); without, it starts its own DynamoDB Local JVM, for
 * tests that kill, freeze or time it.
 */
export async function startPlatform(
  opts: { dataDir?: string; env?: Record<string, string | undefined>; viaNpmStart?: boolean; stores?: SharedStores } = {},
): Promise<RunningPlatform> {
  const dataDir = opts.dataDir ?? (await mkdtemp(join(tmpdir(), 'loyalty-test-')));
  // A fresh DATA_DIR gets the run's development wallet credentials (three RSA keys and two
  // certificates are most of a first start's CPU); `npm start` itself still makes its own.
  if (!opts.dataDir && !opts.viaNpmStart) cpSync(testWalletCredentials(), join(dataDir, 'wallet'), { recursive: true });
  const started = Date.now();
  const [command, args] = opts.viaNpmStart ? ['npm', ['start', '--silent']] : [process.execPath, [join(ROOT, 'bin/local.mjs')]];
  const child = spawn(command, args, { cwd: ROOT, env: childEnv(dataDir, opts.stores, opts.env), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));

  let baseUrl: string | undefined;
  // TEST_RUNTIME_START_MS: more room on a machine busy with other work.
  const deadline = Date.now() + Number(process.env.TEST_RUNTIME_START_MS ?? 60_000);
  while (!baseUrl) {
    const m = output.match(/Listening on (http:\/\/127\.0\.0\.1:\d+)/);
    if (m) baseUrl = m[1];
    else if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`local runtime did not start:\n${output}`);
    } else await sleep(50);
  }
  return {
    baseUrl,
    dataDir,
    child,
    startupMs: Date.now() - started,
    output: () => output,
    runtime: () => runtimeOf(dataDir),
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A client of the running platform's DynamoDB Local, for arranging or inspecting state in tests. */
export function documentClientFor(runtime: RuntimeInfo): DynamoDBDocumentClient {
  const client = new DynamoDBClient({
    endpoint: runtime.dynamodbEndpoint,
    region: 'eu-west-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  return DynamoDBDocumentClient.from(client);
}

export async function runtimeOf(dataDir: string): Promise<RuntimeInfo> {
  return JSON.parse(await readFile(join(dataDir, 'runtime.json'), 'utf8')) as RuntimeInfo;
}

export interface FinishedRun {
  /** null if it was still running at the time limit (then it was killed). */
  code: number | null;
  output: string;
  ms: number;
}

/**
 * Runs the local runtime expecting it to refuse to start: waits for it to exit (at most `timeoutMs`,
 * then stops it and reports `code: null`). `env` values of `undefined` remove the variable.
 */
export async function runToExit(opts: { dataDir?: string; env?: Record<string, string | undefined>; timeoutMs?: number } = {}): Promise<FinishedRun> {
  const dataDir = opts.dataDir ?? (await mkdtemp(join(tmpdir(), 'loyalty-test-')));
  const env = childEnv(dataDir, undefined, opts.env);
  const started = Date.now();
  const child = spawn(process.execPath, [join(ROOT, 'bin/local.mjs')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  // Over time: SIGTERM first, so a runtime that did start stops its JVM; SIGKILL if that is not enough.
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
  }, opts.timeoutMs ?? 30_000);
  const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
  clearTimeout(timer);
  return { code: timedOut ? null : code, output, ms: Date.now() - started };
}
