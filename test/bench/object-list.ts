import { BatchWriteCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { performance } from 'node:perf_hooks';
import { indexKeysOf, keyOf } from '../../shared/platform/data/keys';
import { valueEntryItem } from '../../shared/objects/repository';
import { titleKeyOf } from '../../shared/objects/validator';
import { newId } from '../../shared/platform/ids';
import { documentClientFor, type RunningPlatform } from '../support/platform';

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const round = (n: number) => Math.round(n * 100) / 100;

/**
 * A type with `records` records; a page of 50 sorted by `title_asc` with one `f_` filter (which
 * also asks for the total of all matches) through the local HTTP API, next to a plain Query of 50
 * items of that type's title index on the same DynamoDB Local.
 */
export async function objectList(platform: RunningPlatform, opts: { records: number; samples: number }) {
  const json = async (method: string, path: string, body: unknown, token?: string) =>
    (await (
      await fetch(platform.baseUrl + path, {
        method,
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      })
    ).json()) as any;
  const reg = await json('POST', '/api/v2/auth/register', {
    workspaceName: 'Bench objects',
    email: `objects-${Date.now()}@example.test`,
    password: 'bench password 1',
  });
  const session = reg.data.session.token as string;
  const workspaceId = reg.data.workspace.id as string;
  const key = (await json('POST', '/api/v2/api-keys', { name: 'bench', scopes: ['objects:read', 'objects:write'] }, session)).data.key as string;
  const fields = [
    { key: 'title', type: 'text', required: true },
    { key: 'state', type: 'enum', required: true, options: ['open', 'in_progress', 'done', 'archived'] },
    { key: 'cost', type: 'number' },
  ] as const;
  await json('PUT', '/api/flash/objects/types/job', { label: 'Job', status: 'published', apiVisible: true, titleField: 'title', fields }, session);

  // Seed straight into the table, in the records' own layout with the value entry of their enum
  // field (a copy of the record), as the service writes them (through the API it would only take longer).
  const runtime = await platform.runtime();
  const doc = documentClientFor(runtime);
  const states = ['open', 'in_progress', 'done', 'archived'];
  const at = new Date().toISOString();
  const items = Array.from({ length: opts.records }, (_, i) => {
    const id = newId('rec');
    const data = { title: `Job ${String((i * 7919) % opts.records).padStart(6, '0')}`, state: states[i % 4]!, cost: i };
    return {
      ...keyOf('objectRecord', { workspaceId, type: 'job', recordId: id }),
      ...indexKeysOf('objectRecord', {
        workspaceId,
        type: 'job',
        recordId: id,
        createdAt: at,
        updatedAt: at,
        titleKey: titleKeyOf(fields as never, 'title', data),
      }),
      entity: 'objectRecord',
      id,
      workspaceId,
      type: 'job',
      data,
      search: { title: data.title.toLowerCase(), state: data.state },
      createdAt: at,
      updatedAt: at,
      rev: 1,
    };
  });
  const entries = items.map((r) => valueEntryItem(r, titleKeyOf(fields as never, 'title', r.data), { field: 'state', value: r.data.state }));
  const rows: Record<string, unknown>[] = [...items, ...entries];
  const chunks = [];
  for (let i = 0; i < rows.length; i += 25) chunks.push(rows.slice(i, i + 25));
  for (let i = 0; i < chunks.length; i += 8) {
    await Promise.all(
      chunks
        .slice(i, i + 8)
        .map((c) => doc.send(new BatchWriteCommand({ RequestItems: { [runtime.tableName]: c.map((Item) => ({ PutRequest: { Item } })) } }))),
    );
  }
  await doc.send(
    new UpdateCommand({
      TableName: runtime.tableName,
      Key: keyOf('objectType', { workspaceId, type: 'job' }),
      UpdateExpression: 'SET recordCount = :n',
      ExpressionAttributeValues: { ':n': opts.records },
    }),
  );
  // The per-value counters the service keeps for enum fields, as its writes would have left them.
  for (const state of states) {
    const n = items.filter((i) => i.data.state === state).length;
    await doc.send(
      new UpdateCommand({
        TableName: runtime.tableName,
        Key: keyOf('objectCounter', { workspaceId, type: 'job', field: 'state', value: JSON.stringify(state) }),
        UpdateExpression: 'SET entity = :e, n = :n',
        ExpressionAttributeValues: { ':e': 'objectCounter', ':n': n },
      }),
    );
  }

  let total = 0;
  const filteredCall = async () => {
    const res = await fetch(`${platform.baseUrl}/api/v2/objects/job/records?sortBy=title_asc&limit=50&f_state=done`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const body = (await res.json()) as { data: unknown[]; total: number };
    if (res.status !== 200 || body.data.length !== 50 || body.total !== opts.records / 4)
      throw new Error(`unexpected answer ${res.status} total ${body.total}`);
    total = body.total;
  };
  const partition = `WS#${workspaceId}#OBJ#job`;
  const unfilteredCall = async () => {
    const res = await fetch(`${platform.baseUrl}/api/v2/objects/job/records?sortBy=title_asc&limit=50`, { headers: { authorization: `Bearer ${key}` } });
    await res.arrayBuffer();
  };
  const rawCall = async () => {
    await doc.send(
      new QueryCommand({
        TableName: runtime.tableName,
        IndexName: 'gsi3',
        KeyConditionExpression: 'gsi3pk = :pk',
        ExpressionAttributeValues: { ':pk': partition },
        Limit: 50,
      }),
    );
  };
  // The three calls take turns, sample by sample, after a few untimed rounds: on a shared machine
  // (and a store just loaded with the seed) the load drifts, and measured one series after
  // another each series would carry a different share of it.
  const calls = { api: filteredCall, unfiltered: unfilteredCall, raw: rawCall };
  const samples: Record<keyof typeof calls, number[]> = { api: [], unfiltered: [], raw: [] };
  for (let i = 0; i < 5; i++) for (const fn of Object.values(calls)) await fn();
  for (let i = 0; i < opts.samples; i++) {
    for (const [name, fn] of Object.entries(calls) as [keyof typeof calls, () => Promise<void>][]) {
      const t = performance.now();
      await fn();
      samples[name].push(performance.now() - t);
    }
  }
  const stats = (list: number[]) => {
    const sorted = [...list].sort((a, b) => a - b);
    return { samples: opts.samples, p50Ms: round(percentile(sorted, 50)), p99Ms: round(percentile(sorted, 99)) };
  };
  const [api, unfiltered, raw] = [stats(samples.api), stats(samples.unfiltered), stats(samples.raw)];
  return {
    name: `object records: ${opts.records} records, page of 50 by title_asc with f_state (and its total) vs plain Query of 50`,
    filteredWithTotal: { ...api, total },
    unfilteredWithTotal: unfiltered,
    rawQuery50: raw,
    p50Ratio: round(api.p50Ms / raw.p50Ms),
    target: 'p50Ratio <= 2',
    unfilteredP50Ratio: round(unfiltered.p50Ms / raw.p50Ms),
  };
}
