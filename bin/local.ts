/**
 * The local runtime: `npm start`. DynamoDB Local + s3rver + the route table's handlers behind a
 * node:http server on 127.0.0.1:$PORT, data under $DATA_DIR. No AWS account, no Docker.
 */
import './node-check';
import { rmSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { passwordSettings } from '../shared/platform/config/overrides';
import { installLocalCommitBarrier } from '../infra/local/commit-barrier';
import { requireJava, startDynamoLocal, type RunningDynamo } from '../infra/local/dynamodb-local';
import { colorsOf, LOG_FORMAT_ENV, logFormatOf, metricsShownOf } from '../infra/local/log-format';
import { renderOutputPretty, say, step } from '../infra/local/log-output';
import { LOCAL_BUCKETS, startS3rver, type RunningS3 } from '../infra/local/object-store';
import {
  acquireLock,
  checkPortFree,
  parsePort,
  portProblem,
  StartupError,
  stopOrphanedDynamo,
  writeFileAtomic,
  type InstanceLock,
} from '../infra/local/preflight';

const dataDir = resolve(process.env.DATA_DIR ?? '.data');
const runtimeFile = join(dataDir, 'runtime.json');
const started = Date.now();
/**
 * A DynamoDB (Local) and an S3 (s3rver) that are already running, named by DYNAMODB_ENDPOINT and
 * S3_ENDPOINT before start: used instead of starting our own (no JVM, no Java needed), so several
 * runtimes, each on its own TABLE_NAME and DATA_DIR, can share one JVM (the test suite does). The
 * external S3 must serve LOCAL_BUCKETS. Unset, as for `npm start`, both are started here.
 */
const external = { dynamodb: process.env.DYNAMODB_ENDPOINT || undefined, s3: process.env.S3_ENDPOINT || undefined };

let lock: InstanceLock | undefined;
let runtimeInfo: Record<string, unknown> | undefined;

let dynamo: RunningDynamo | undefined;
let s3: RunningS3 | undefined;
let server: import('node:http').Server | undefined;
let pipelines: { stop(graceMs: number): Promise<void>; workflowTasks: Record<string, Record<string, (...args: unknown[]) => Promise<unknown>>> } | undefined;
let workflows: { stop(graceMs: number): Promise<void> } | undefined;
let stopping: Promise<void> | undefined;

// The format is decided before anything is printed; an unknown LOG_FORMAT is refused in main().
const logFormat = logFormatOf(process.env, process.stdout.isTTY === true);
if (logFormat === 'pretty') {
  renderOutputPretty(
    { stdout: colorsOf(process.env, process.stdout.isTTY === true), stderr: colorsOf(process.env, process.stderr.isTTY === true) },
    metricsShownOf(process.env),
  );
}

/** Stops the server and every child process, saying each step; idempotent, so a second signal does not race the first. */
function shutdown(code: number): Promise<void> {
  stopping ??= (async () => {
    const anythingStarted = [server, pipelines, workflows, s3, dynamo].some(Boolean);
    if (anythingStarted) say.info('Stopping…');
    const s = server;
    if (s) {
      await step(
        'HTTP closed',
        async () => {
          s.closeAllConnections();
          await new Promise<void>((r) => s.close(() => r()));
        },
        'stop',
      );
    }
    // Before DynamoDB Local goes: they finish (or abandon) in-flight invocations and write checkpoints.
    const p = pipelines;
    if (p) await step('pipelines drained', () => p.stop(5000).catch(() => undefined), 'stop');
    // Executions still running are cut off (their jobs are failed by their deadline when next read).
    const w = workflows;
    if (w) await step('workflows stopped', () => w.stop(2000).catch(() => undefined), 'stop');
    const o = s3;
    if (o) await step('object store stopped', () => o.stop().catch(() => undefined), 'stop');
    const d = dynamo;
    if (d) await step('DynamoDB Local stopped', () => d.stop(), 'stop');
    (await import('../infra/local/local-queue-store')).closeLocalQueueStore();
    if (anythingStarted) say.info('Stopped');
    // A clean stop leaves nothing that says an instance runs (only the holder of the lock removes them).
    if (lock && code === 0) rmSync(runtimeFile, { force: true });
    lock?.release();
    process.exit(code);
  })();
  return stopping;
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void shutdown(0));
// If whatever started us dies without passing a signal on, stop too rather than live on as an orphan.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) void shutdown(0);
}, 1000).unref();
// Last resort: the lock goes whatever ends this process (dynamodb-local kills its JVM on 'exit' too).
process.on('exit', () => lock?.release());

/** Checks before anything starts: each fails with one line saying what to do. */
function checks() {
  return step('checks (port, data directory, Java)', async () => {
    const port = parsePort(process.env.PORT);
    await mkdir(dataDir, { recursive: true });
    lock = acquireLock(dataDir, port);
    await checkPortFree(port);
    const java = external.dynamodb ? undefined : requireJava();
    await stopOrphanedDynamo(dataDir, lock.previous);
    rmSync(runtimeFile, { force: true }); // describes an instance that is gone
    return { port, java };
  });
}

/**
 * DynamoDB Local and the object store, side by side, or the ones already running that the environment
 * names; each is assigned as it comes up, so a failure of the other still stops it.
 */
async function startStores(java: ReturnType<typeof requireJava> | undefined): Promise<{ dynamodbEndpoint: string; s3Endpoint: string }> {
  const [dynamodbEndpoint, s3Endpoint] = await Promise.all([
    external.dynamodb ??
      step('DynamoDB Local', async () => {
        dynamo = await startDynamoLocal(join(dataDir, 'dynamodb'), {
          java,
          // Supervision: a JVM that dies is started again on the same port; later starts must find the new one.
          onRestart: (pid) => {
            lock?.update({ dynamodbPid: pid });
            if (runtimeInfo) {
              runtimeInfo.dynamodbPid = pid;
              writeFileAtomic(runtimeFile, JSON.stringify(runtimeInfo, null, 2));
            }
          },
        });
        return dynamo.endpoint;
      }),
    external.s3 ??
      step('object store (s3rver)', async () => {
        s3 = await startS3rver(join(dataDir, 's3'));
        return s3.endpoint;
      }),
  ]);
  return { dynamodbEndpoint, s3Endpoint };
}

/** Configuration of the handlers: set before any of them is loaded (they parse it once). */
function configureHandlers(dynamodbEndpoint: string, s3Endpoint: string): void {
  // DynamoDB Local answers a transaction before it commits it: the handlers' clients confirm it.
  installLocalCommitBarrier();
  Object.assign(process.env, {
    STAGE: 'local',
    TABLE_NAME: process.env.TABLE_NAME ?? 'loyalty-local',
    DYNAMODB_ENDPOINT: dynamodbEndpoint,
    S3_ENDPOINT: s3Endpoint,
    EXPORTS_BUCKET: LOCAL_BUCKETS.exports,
    AWS_REGION: process.env.AWS_REGION ?? 'eu-west-1',
    // A development tool: webhooks may target receivers on this machine (off in AWS).
    WEBHOOK_ALLOW_LOOPBACK: process.env.WEBHOOK_ALLOW_LOOPBACK ?? 'true',
    // DynamoDB Local answers slower than DynamoDB under load; give the fail-closed guard room.
    OBJECTS_RATE_GUARD_TIMEOUT_MS: process.env.OBJECTS_RATE_GUARD_TIMEOUT_MS ?? '2000',
    // The same for the request budgets' counter, which admits uncounted when it does not answer in time.
    WORKSPACE_RATE_TIMEOUT_MS: process.env.WORKSPACE_RATE_TIMEOUT_MS ?? '2000',
    // DynamoDB Local commits one transaction at a time: with 16 of a pool's code reservations in
    // flight each waits for the other 15, past its per-call time-out once the machine is busy.
    COUPON_RESERVE_PARALLELISM: process.env.COUPON_RESERVE_PARALLELISM ?? '2',
    // The queue emulation's messages (SQLite, next to the table's data).
    LOCAL_QUEUE_DB: join(dataDir, 'queues.sqlite'),
  });
}

/** The queue driver, stream pollers, scheduler and the workflows, whose Task states call the consumer table's handlers. */
function startPipelinesAndWorkflows() {
  return step('pipelines (queue driver, stream pollers, scheduler, workflows)', async () => {
    const running = await (await import('../infra/local/pipelines')).startPipelines();
    pipelines = running;
    const { LocalWorkflows } = await import('../infra/local/workflows');
    const { provideAdapters } = await import('../shared/platform/adapters/provided');
    const retryMs = process.env.LOCAL_WORKFLOW_RETRY_MS;
    const localWorkflows = new LocalWorkflows(running.workflowTasks, retryMs ? { retryIntervalMs: Number(retryMs) } : {});
    workflows = localWorkflows;
    provideAdapters({ workflows: localWorkflows });
  });
}

function listen(port: number) {
  return step('HTTP', async () => {
    const { createHttpServer } = await import('../infra/local/http-server');
    const s = createHttpServer();
    server = s;
    await new Promise<void>((r, j) => s.once('error', (err) => j(portProblem(err, port) ?? err)).listen(port, '127.0.0.1', () => r()));
    return (s.address() as AddressInfo).port;
  });
}

/** A number override the handlers would refuse at their first use is refused before anything starts. */
function refuseBadOverrides(): void {
  try {
    passwordSettings({ ...process.env, STAGE: 'local' });
  } catch (error) {
    throw new StartupError((error as Error).message);
  }
}

async function main(): Promise<void> {
  if (!logFormat) throw new StartupError(`${LOG_FORMAT_ENV}=${process.env[LOG_FORMAT_ENV]} is not a log format: use json or pretty`);
  refuseBadOverrides();
  const { port, java } = await checks();
  const held = lock!;
  const { dynamodbEndpoint, s3Endpoint } = await startStores(java);
  if (dynamo) held.update({ dynamodbPid: dynamo.process.pid });
  configureHandlers(dynamodbEndpoint, s3Endpoint);

  const { provideLocalAdapters } = await import('../infra/local/adapters');
  provideLocalAdapters(dataDir);

  const tableIsNew = await step('table', async () => (await import('../infra/local/table-admin')).ensureTable());
  await startPipelinesAndWorkflows();
  const actualPort = await listen(port);
  held.update({ port: actualPort });
  process.env.PUBLIC_BASE_URL ??= `http://127.0.0.1:${actualPort}`;
  // Read before the port was known (PORT=0): links and pass web service URLs must name this one.
  (await import('../shared/platform/config')).reloadRuntimeConfig();
  const { ensureDemoWorkspace } = await import('../infra/local/demo');
  const demo = await step('demo workspace', () => ensureDemoWorkspace(dataDir, tableIsNew));

  // dynamodbPid is absent with an external DynamoDB: its JVM is not ours to stop.
  runtimeInfo = {
    pid: process.pid,
    dynamodbPid: dynamo?.process.pid,
    port: actualPort,
    dynamodbEndpoint,
    s3Endpoint,
    tableName: process.env.TABLE_NAME,
    queueDatabase: process.env.LOCAL_QUEUE_DB,
  };
  writeFileAtomic(runtimeFile, JSON.stringify(runtimeInfo, null, 2));
  if (demo) {
    say.info(tableIsNew ? 'Created the demo workspace' : 'Demo workspace (kept from the first start)', {
      credentials: { adminEmail: demo.email, adminPassword: demo.password, apiKey: demo.apiKey },
    });
  }
  say.info(`Data in ${dataDir} (ready in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  const base = `http://127.0.0.1:${actualPort}`;
  const { readyBanner, printBanner } = await import('../infra/local/ready-banner');
  const { REFERENCE_PATH } = await import('../shared/platform/contract/reference');
  const { CONSOLE_PATH } = await import('../infra/build/console');
  printBanner(readyBanner(base, demo?.apiKey, { reference: REFERENCE_PATH, console: CONSOLE_PATH }), logFormat === 'pretty', say.info);
  say.info(`Listening on ${base}`);
}

main().catch((err) => {
  if (err instanceof StartupError) say.error(`local runtime not started: ${err.message}`);
  else say.error('local runtime failed to start', { error: err });
  void shutdown(1);
});
