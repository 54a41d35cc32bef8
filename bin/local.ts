/**
 * The local runtime: `npm start`. DynamoDB Local + s3rver + the route table's handlers behind a
 * node:http server on 127.0.0.1:$PORT, data under $DATA_DIR. No AWS account, no Docker.
 */
import { rmSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { requireJava, startDynamoLocal, type RunningDynamo } from '../infra/local/dynamodb-local';
import { LOCAL_BUCKETS, startS3rver, type RunningS3 } from '../infra/local/object-store';
import { acquireLock, checkPortFree, parsePort, portProblem, StartupError, stopOrphanedDynamo, writeFileAtomic, type InstanceLock } from '../infra/local/preflight';

const dataDir = resolve(process.env.DATA_DIR ?? '.data');
const runtimeFile = join(dataDir, 'runtime.json');
const started = Date.now();

let lock: InstanceLock | undefined;
let runtimeInfo: Record<string, unknown> | undefined;

let dynamo: RunningDynamo | undefined;
let s3: RunningS3 | undefined;
let server: import('node:http').Server | undefined;
let pipelines: { stop(graceMs: number): Promise<void>; workflowTasks: Record<string, Record<string, (...args: unknown[]) => Promise<unknown>>> } | undefined;
let workflows: { stop(graceMs: number): Promise<void> } | undefined;
let stopping: Promise<void> | undefined;

/** Stops the server and every child process; idempotent, so a second signal does not race the first. */
function shutdown(code: number): Promise<void> {
  stopping ??= (async () => {
    server?.closeAllConnections();
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    // Before DynamoDB Local goes: they finish (or abandon) in-flight invocations and write checkpoints.
    await pipelines?.stop(5000).catch(() => undefined);
    // Executions still running are cut off (their jobs are failed by their deadline when next read).
    await workflows?.stop(2000).catch(() => undefined);
    await s3?.stop().catch(() => undefined);
    await dynamo?.stop();
    (await import('../infra/local/local-queue-store')).closeLocalQueueStore();
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

async function main(): Promise<void> {
  // Checks before anything starts: each fails with one line saying what to do.
  const port = parsePort(process.env.PORT);
  await mkdir(dataDir, { recursive: true });
  lock = acquireLock(dataDir, port);
  await checkPortFree(port);
  const java = requireJava();
  await stopOrphanedDynamo(dataDir, lock.previous);
  rmSync(runtimeFile, { force: true }); // describes an instance that is gone

  [dynamo, s3] = await Promise.all([
    startDynamoLocal(join(dataDir, 'dynamodb'), {
      java,
      // Supervision: a JVM that dies is started again on the same port; later starts must find the new one.
      onRestart: (pid) => {
        lock?.update({ dynamodbPid: pid });
        if (runtimeInfo) {
          runtimeInfo.dynamodbPid = pid;
          writeFileAtomic(runtimeFile, JSON.stringify(runtimeInfo, null, 2));
        }
      },
    }),
    startS3rver(join(dataDir, 's3')),
  ]);
  lock.update({ dynamodbPid: dynamo.process.pid });

  // Configuration of the handlers: set before any of them is loaded (they parse it once).
  Object.assign(process.env, {
    STAGE: 'local',
    TABLE_NAME: process.env.TABLE_NAME ?? 'loyalty-local',
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    S3_ENDPOINT: s3.endpoint,
    EXPORTS_BUCKET: LOCAL_BUCKETS.exports,
    AWS_REGION: process.env.AWS_REGION ?? 'eu-west-1',
    // A development tool: webhooks may target receivers on this machine (off in AWS).
    WEBHOOK_ALLOW_LOOPBACK: process.env.WEBHOOK_ALLOW_LOOPBACK ?? 'true',
    // DynamoDB Local answers slower than DynamoDB under load; give the fail-closed guard room.
    OBJECTS_RATE_GUARD_TIMEOUT_MS: process.env.OBJECTS_RATE_GUARD_TIMEOUT_MS ?? '2000',
    // The queue emulation's messages (SQLite, next to the table's data).
    LOCAL_QUEUE_DB: join(dataDir, 'queues.sqlite'),
  });

  const { provideLocalAdapters } = await import('../infra/local/adapters');
  provideLocalAdapters(dataDir);
  const { ensureTable } = await import('../infra/local/table-admin');
  const { ensureDemoWorkspace } = await import('../infra/local/demo');
  const { createHttpServer } = await import('../infra/local/http-server');
  const { startPipelines } = await import('../infra/local/pipelines');

  const tableIsNew = await ensureTable();
  pipelines = await startPipelines();
  // Workflows run in this process, their Task states calling the handlers of the consumer table.
  const { LocalWorkflows } = await import('../infra/local/workflows');
  const { provideAdapters } = await import('../shared/adapters/provided');
  const retryMs = process.env.LOCAL_WORKFLOW_RETRY_MS;
  const localWorkflows = new LocalWorkflows(pipelines.workflowTasks, retryMs ? { retryIntervalMs: Number(retryMs) } : {});
  workflows = localWorkflows;
  provideAdapters({ workflows: localWorkflows });
  server = createHttpServer();
  await new Promise<void>((r, j) => server!.once('error', (err) => j(portProblem(err, port) ?? err)).listen(port, '127.0.0.1', () => r()));
  const actualPort = (server.address() as AddressInfo).port;
  lock.update({ port: actualPort });
  process.env.PUBLIC_BASE_URL ??= `http://127.0.0.1:${actualPort}`;
  // Read before the port was known (PORT=0): links and pass web service URLs must name this one.
  (await import('../shared/config')).reloadRuntimeConfig();
  const demo = await ensureDemoWorkspace(dataDir, tableIsNew);

  runtimeInfo = { pid: process.pid, dynamodbPid: dynamo.process.pid, port: actualPort, dynamodbEndpoint: dynamo.endpoint, s3Endpoint: s3.endpoint, tableName: process.env.TABLE_NAME, queueDatabase: process.env.LOCAL_QUEUE_DB };
  writeFileAtomic(runtimeFile, JSON.stringify(runtimeInfo, null, 2));
  if (demo) {
    console.log(
      [
        tableIsNew ? 'Created the demo workspace:' : 'Demo workspace (kept from the first start):',
        `  admin e-mail:    ${demo.email}`,
        `  admin password:  ${demo.password}`,
        `  API key (all scopes): ${demo.apiKey}`,
      ].join('\n'),
    );
  }
  console.log(`Data in ${dataDir} (ready in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  console.log(`Listening on http://127.0.0.1:${actualPort}`);
}

main().catch((err) => {
  if (err instanceof StartupError) console.error(`local runtime not started: ${err.message}`);
  else console.error('local runtime failed to start:', err);
  void shutdown(1);
});
