import { BatchWriteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { config } from '../../shared/platform/config';
import { indexKeysOf, indexPartition, keyOf } from '../../shared/platform/data/keys';
import { COLUMNS } from '../../shared/exports/columns';
import { newId } from '../../shared/platform/ids';
import { documentClientFor, type RunningPlatform } from '../support/platform';

const round = (n: number) => Math.round(n * 100) / 100;

/** Peak resident set of a process (Linux: VmHWM), in MiB; undefined where /proc is not there. */
function peakRssMiB(pid: number): number | undefined {
  try {
    const kib = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kib ? round(Number(kib) / 1024) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * An operational CSV export of `members` members through the HTTP API (the local runtime runs the
 * export workflow in its own process: the process whose peak RSS is reported), next to a raw paged
 * Query of the same items (same index, page size and projection) in the same run. Rows per second of
 * the export are measured between the job's `startedAt` and `completedAt`.
 */
export async function operationalExport(platform: RunningPlatform, opts: { members: number }) {
  const json = async (method: string, path: string, body: unknown, token?: string) => {
    const res = await fetch(platform.baseUrl + path, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await res.json()) as any;
  };
  const reg = await json('POST', '/api/v2/auth/register', {
    workspaceName: 'Bench exports',
    email: `exports-${Date.now()}@example.test`,
    password: 'bench password 1',
  });
  const session = reg.data.session.token as string;
  const workspaceId = reg.data.workspace.id as string;

  // Seed straight into the table, in the members' own layout (through the API it would only take longer).
  const runtime = await platform.runtime();
  const doc = documentClientFor(runtime);
  const at = new Date().toISOString();
  const memberItem = (i: number) => {
    const id = newId('mbr');
    return {
      ...keyOf('member', { workspaceId, memberId: id }),
      ...indexKeysOf('member', { workspaceId, memberId: id }),
      entity: 'member',
      id,
      workspaceId,
      email: `member-${i}@example.test`,
      externalId: `EXT-${i}`,
      firstName: i % 10 === 0 ? `Ann, "${i}"` : `First${i}`,
      lastName: `Last ${i}`,
      phone: null,
      birthDate: null,
      status: 'active',
      tier: 'bronze',
      balance: i % 1000,
      pending: 0,
      lifetime: i % 5000,
      orderCount: i % 7,
      customAttributes: { segment: `s${i % 13}` },
      tags: [],
      rev: 0,
      version: 1,
      searchText: `member-${i}@example.test`,
      createdAt: at,
      updatedAt: at,
    };
  };
  const seedStart = performance.now();
  const batches = Math.ceil(opts.members / 25);
  for (let b = 0; b < batches; b += 16) {
    await Promise.all(
      Array.from({ length: Math.min(16, batches - b) }, async (_, k) => {
        const from = (b + k) * 25;
        let request: Record<string, any> | undefined = {
          [runtime.tableName]: Array.from({ length: Math.min(25, opts.members - from) }, (_, j) => ({ PutRequest: { Item: memberItem(from + j) } })),
        };
        while (request && Object.keys(request).length) {
          const out: { UnprocessedItems?: Record<string, any> } = await doc.send(new BatchWriteCommand({ RequestItems: request }));
          request = out.UnprocessedItems && Object.keys(out.UnprocessedItems).length ? out.UnprocessedItems : undefined;
        }
      }),
    );
  }
  const seedMs = performance.now() - seedStart;

  // Baseline: the same items, the same index, page size and projection, read as fast as one reader can.
  const partition = indexPartition('member', 'gsi1', { workspaceId });
  const attributes = COLUMNS.members.attributes;
  const names = Object.fromEntries(attributes.map((a, i) => [`#p${i}`, a]));
  const rawStart = performance.now();
  let rawRows = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const out = await doc.send(
      new QueryCommand({
        TableName: runtime.tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': partition },
        ExpressionAttributeNames: names,
        ProjectionExpression: Object.keys(names).join(', '),
        ScanIndexForward: false,
        Limit: config.exports.readPageSize,
        ExclusiveStartKey: start,
      }),
    );
    rawRows += out.Items?.length ?? 0;
    start = out.LastEvaluatedKey;
  } while (start);
  const rawMs = performance.now() - rawStart;

  const started = await json('POST', '/api/flash/exports', { entity: 'members', format: 'csv' }, session);
  const jobId = started.data.id as string;
  let job: any;
  for (;;) {
    job = (await json('GET', `/api/flash/exports/${jobId}`, undefined, session)).data;
    if (job.status === 'completed' || job.status === 'failed') break;
    await sleep(200);
  }
  if (job.status !== 'completed') throw new Error(`export failed: ${job.error}`);
  // startedAt is not in the API answer; the job item has it.
  const stored = (
    await doc.send(
      new QueryCommand({
        TableName: runtime.tableName,
        KeyConditionExpression: 'pk = :pk AND sk = :sk',
        ExpressionAttributeValues: { ':pk': keyOf('exportJob', { workspaceId, jobId }).pk, ':sk': keyOf('exportJob', { workspaceId, jobId }).sk },
      }),
    )
  ).Items![0]!;
  const exportMs = Date.parse(stored.completedAt) - Date.parse(stored.startedAt);
  const exportRowsPerSecond = round((job.rowCount / exportMs) * 1000);
  const rawRowsPerSecond = round((rawRows / rawMs) * 1000);
  const peak = peakRssMiB((await platform.runtime()).pid);
  const ratio = round(exportRowsPerSecond / rawRowsPerSecond);
  return {
    name: `operational export: ${opts.members} members as CSV (workflow, DynamoDB pages -> csv-stringify -> S3 multipart) vs raw paged Query of the same items`,
    seedMs: Math.round(seedMs),
    export: { rows: job.rowCount, capped: job.capped, ms: exportMs, rowsPerSecond: exportRowsPerSecond },
    rawQuery: { rows: rawRows, ms: Math.round(rawMs), rowsPerSecond: rawRowsPerSecond },
    ratio,
    peakRssMiB: peak,
    targets: { minRatio: 0.7, maxPeakRssMiB: 256 },
    withinTargets: ratio >= 0.7 && (peak === undefined || peak <= 256),
  };
}
