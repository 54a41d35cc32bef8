import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildBundles, functionEntries } from '../../infra/build/bundling/build';
import { BUNDLE_BUDGET_EXCEPTION, BUNDLE_BUDGET_KIB, bundleBudgetKib } from '../../infra/build/bundling/options';

/**
 * Cold start of every function (`functions/<name>/handler.ts`): size of its bundle and the time a
 * fresh `node` process takes to import it (module load: parse, link, top-level code), next to a
 * bundle that only uses the DynamoDB document client, and an empty one. The bundles are built
 * with the options CDK uses (infra/build/bundling/options.ts), so this measures what ships.
 *
 * Each process imports one bundle once and times the import; the environment is a function's in
 * AWS (`NODE_OPTIONS=--enable-source-maps`, region, credentials, service name). Every bundle is
 * imported once untimed (file cache), then `runs` rounds import each bundle once, in a rotating
 * order, one process at a time. Reported per bundle: the median wall-clock time (the figure the
 * targets use) and the median CPU time of the process (steadier when the machine is busy).
 */

const BASELINE = '_baseline-dynamodb-client';
const EMPTY = '_empty-module';
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

const round1 = (n: number) => Math.round(n * 10) / 10;
const kib = (bytes: number) => round1(bytes / 1024);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/** The environment CDK gives a function (infra/app/constructs/platform-function.ts) and Lambda adds. */
const lambdaEnv = (service: string): NodeJS.ProcessEnv => ({
  NODE_OPTIONS: '--enable-source-maps',
  STAGE: 'aws',
  TABLE_NAME: 'LoyaltyTable',
  MAILER: 'ses',
  MAIL_FROM: 'no-reply@example.com',
  PUBLIC_BASE_URL: 'https://api.example.com',
  POWERTOOLS_SERVICE_NAME: service,
  POWERTOOLS_LOG_LEVEL: 'ERROR',
  AWS_REGION: 'eu-west-1',
  AWS_DEFAULT_REGION: 'eu-west-1',
  AWS_ACCESS_KEY_ID: 'AKIDBENCH',
  AWS_SECRET_ACCESS_KEY: 'bench',
  AWS_SESSION_TOKEN: 'bench',
  AWS_LAMBDA_FUNCTION_NAME: service,
  AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '1024',
  TZ: ':UTC',
  LANG: 'en_US.UTF-8',
});

interface ImportTime {
  /** Wall-clock milliseconds. */
  ms: number;
  /** CPU milliseconds of the process (all its threads), less sensitive to other load on the machine. */
  cpuMs: number;
}

/** Time one fresh process spends in `await import(bundle)`. */
function timeImport(file: string, service: string): Promise<ImportTime> {
  const code =
    `const c=process.cpuUsage(),t=performance.now();await import(${JSON.stringify(pathToFileURL(file).href)});` +
    `const ms=performance.now()-t,u=process.cpuUsage(c);process.stdout.write(JSON.stringify({ms,cpuMs:(u.user+u.system)/1000}));process.exit(0);`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', code], { env: lambdaEnv(service), cwd: tmpdir(), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (status) => {
      if (status === 0 && out.startsWith('{')) resolve(JSON.parse(out) as ImportTime);
      else reject(new Error(`importing ${file} failed (exit ${status}): ${err.trim() || out}`));
    });
  });
}

export interface BundleFigures {
  sizeKiB: number;
  /** Median module load (wall clock) of `runs` processes. */
  loadMs: number;
  /** Median CPU time of the same imports. */
  loadCpuMs: number;
}

export async function coldStart(opts: { runs: number }) {
  const outdir = await mkdtemp(join(tmpdir(), 'loyalty-cold-start-'));
  try {
    const functions = functionEntries();
    const entries = { ...functions, [BASELINE]: here('./cold-start-baseline.ts'), [EMPTY]: here('./cold-start-empty.ts') };
    const { bundles } = await buildBundles(entries, outdir);
    const names = Object.keys(entries);

    const samples = new Map<string, ImportTime[]>(names.map((n) => [n, []]));
    for (const name of names) await timeImport(bundles[name]!.file, name); // warm the file cache
    for (let r = 0; r < opts.runs; r++) {
      for (let i = 0; i < names.length; i++) {
        const name = names[(i + r) % names.length]!;
        samples.get(name)!.push(await timeImport(bundles[name]!.file, name));
      }
    }

    const figures = (name: string): BundleFigures => ({
      sizeKiB: kib(bundles[name]!.bytes),
      loadMs: round1(median(samples.get(name)!.map((s) => s.ms))),
      loadCpuMs: round1(median(samples.get(name)!.map((s) => s.cpuMs))),
    });
    const baseline = figures(BASELINE);
    const perFunction = Object.fromEntries(
      Object.keys(functions).map((name) => {
        const f = figures(name);
        const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
        return [name, { ...f, loadRatio: ratio(f.loadMs, baseline.loadMs), loadCpuRatio: ratio(f.loadCpuMs, baseline.loadCpuMs) }];
      }),
    );
    const all = Object.values(perFunction);
    const maxSizeKiB = Math.max(...all.map((f) => f.sizeKiB));
    const maxLoadRatio = Math.max(...all.map((f) => f.loadRatio));
    const maxLoadCpuRatio = Math.max(...all.map((f) => f.loadCpuRatio));
    return {
      name: 'cold start: bundle size and module load per function vs a DynamoDB-client-only bundle',
      runs: opts.runs,
      targets: {
        maxSizeKiB: BUNDLE_BUDGET_KIB,
        maxSizeExceptionKiB: { [BUNDLE_BUDGET_EXCEPTION.function]: BUNDLE_BUDGET_EXCEPTION.kib },
        maxLoadRatio: 2,
      },
      dynamodbClientOnly: baseline,
      emptyModule: figures(EMPTY),
      functions: perFunction,
      maxSizeKiB,
      maxLoadRatio,
      maxLoadCpuRatio,
      withinTargets: Object.entries(perFunction).every(([name, f]) => f.sizeKiB <= bundleBudgetKib(name)) && maxLoadRatio <= 2,
    };
  } finally {
    await rm(outdir, { recursive: true, force: true });
  }
}
