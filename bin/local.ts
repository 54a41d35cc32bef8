/**
 * The local runtime: `npm start`. DynamoDB Local + s3rver + the route table's handlers behind a
 * node:http server on 127.0.0.1:$PORT, data under $DATA_DIR. No AWS account, no Docker.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { startDynamoLocal, type RunningDynamo } from '../infra/local/dynamodb-local';
import { LOCAL_BUCKETS, startS3rver, type RunningS3 } from '../infra/local/object-store';

const dataDir = resolve(process.env.DATA_DIR ?? '.data');
const port = Number(process.env.PORT ?? 3000);
const started = Date.now();

let dynamo: RunningDynamo | undefined;
let s3: RunningS3 | undefined;
let server: import('node:http').Server | undefined;
let pipelines: { stop(graceMs: number): Promise<void> } | undefined;
let stopping: Promise<void> | undefined;

/** Stops the server and every child process; idempotent, so a second signal does not race the first. */
function shutdown(code: number): Promise<void> {
  stopping ??= (async () => {
    server?.closeAllConnections();
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    // Before DynamoDB Local goes: they finish (or abandon) in-flight invocations and write checkpoints.
    await pipelines?.stop(5000).catch(() => undefined);
    await s3?.stop().catch(() => undefined);
    await dynamo?.stop();
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
// Last resort: never leave the JVM behind, whatever ends this process.
process.on('exit', () => dynamo?.process.kill('SIGKILL'));

async function main(): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  [dynamo, s3] = await Promise.all([startDynamoLocal(join(dataDir, 'dynamodb')), startS3rver(join(dataDir, 's3'))]);

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
  });

  const { provideLocalAdapters } = await import('../infra/local/adapters');
  provideLocalAdapters(dataDir);
  const { ensureTable } = await import('../infra/local/table-admin');
  const { ensureDemoWorkspace } = await import('../infra/local/demo');
  const { createHttpServer } = await import('../infra/local/http-server');
  const { startPipelines } = await import('../infra/local/pipelines');

  const tableIsNew = await ensureTable();
  pipelines = await startPipelines();
  server = createHttpServer();
  await new Promise<void>((r, j) => server!.once('error', j).listen(port, '127.0.0.1', () => r()));
  const actualPort = (server.address() as AddressInfo).port;
  process.env.PUBLIC_BASE_URL ??= `http://127.0.0.1:${actualPort}`;
  const demo = await ensureDemoWorkspace(dataDir, tableIsNew);

  await writeFile(
    join(dataDir, 'runtime.json'),
    JSON.stringify({ pid: process.pid, dynamodbPid: dynamo.process.pid, port: actualPort, dynamodbEndpoint: dynamo.endpoint, s3Endpoint: s3.endpoint, tableName: process.env.TABLE_NAME }, null, 2),
  );
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
  console.error('local runtime failed to start:', err);
  void shutdown(1);
});
