import { setTimeout as sleep } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { localConsumerPlan } from '../../../../infra/local/pipelines';
import { provideLocalAdapters } from '../../../../infra/local/adapters';
import { runWorkflow, workflowDefinition } from '../../../../infra/local/workflows';
import { LOCAL_BUCKETS } from '../../../../infra/local/object-store';
import { objectStoreFromConfig } from '../../../../shared/platform/adapters/object-store';
import { getJob } from '../../../../shared/exports/repository';
import { startArchiveExport } from '../../../../shared/exports/jobs';
import { markCompleted } from '../../../../shared/exports/workflow';
import { captureMetrics } from '../../../../shared/platform/observability/metrics';
import { metricOf } from '../../../support/metrics';
import type { Workflows } from '../../../../shared/platform/ports/workflows';
import { call } from '../../../support/api';
import { newMember, newOrder, tenant } from '../../../support/fixtures';
import { platformTable } from '../../../support/table';

/**
 * The export workflow's ASL file, run by aws-local-stepfunctions in this process with the real Task
 * handlers of the consumer table, against the platform's DynamoDB Local and s3rver: the happy path,
 * a failing Task caught into `failed` with its error, a step timing out, and a section cap.
 */

const definition = workflowDefinition('export');
const tasks = () => localConsumerPlan().workflowTasks.export!;
/** Records the start instead of running it: the test runs the execution itself. */
const starts: { name: string; input: Record<string, unknown> }[] = [];
const recordingWorkflows: Workflows = { start: async (_w, name, input) => void starts.push({ name, input }) };
const audit = { actor: { type: 'user' as const, id: 'usr_01jnkv6a1h1234567890abcdef' }, requestId: 'req_export_workflow_test' };

beforeAll(async () => {
  const { runtime } = await platformTable();
  Object.assign(process.env, {
    STAGE: 'local',
    TABLE_NAME: runtime.tableName,
    DYNAMODB_ENDPOINT: runtime.dynamodbEndpoint,
    S3_ENDPOINT: runtime.s3Endpoint,
    EXPORTS_BUCKET: LOCAL_BUCKETS.exports,
    LOCAL_QUEUE_DB: runtime.queueDatabase,
    AWS_REGION: 'eu-west-1',
  });
  provideLocalAdapters(tmpdir());
});

afterEach(() => {
  delete process.env.EXPORT_ARCHIVE_SECTION_CAP;
});

/** A workspace with members, an order and a coupon pool, and a pending archive job for it. */
async function arranged(members = 2) {
  const t = await tenant('export-wf');
  const ms = [];
  for (let i = 0; i < members; i++) ms.push(await newMember(t.key, { firstName: `First${i}`, phone: `+4930123456${i}` }));
  await newOrder(t.key, ms[0].id, { total: 42.5 });
  const pool = await call('POST', '/api/v2/coupons/pools', {
    token: t.key,
    body: { name: 'Spring', discount: { type: 'percent', value: 10 }, codeConfig: { mode: 'generated', prefix: 'SPR-' }, stock: 5 },
  });
  expect(pool.status).toBe(201);
  const started = await startArchiveExport(t.workspaceId, { workflows: recordingWorkflows }, audit);
  const start = starts.find((s) => s.name === started.id)!;
  expect(start.input).toEqual({ workspaceId: t.workspaceId, jobId: started.id, kind: 'archive' });
  return { t, members: ms, jobId: started.id, input: start.input };
}

async function archiveOf(key: string): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of await objectStoreFromConfig().read(key)) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

describe('export workflow (infra/app/workflows/export.asl.json under aws-local-stepfunctions)', () => {
  it('a finished run is counted once: ExportRuns{completed}, its rows and duration; a repeated MarkCompleted counts nothing', async () => {
    const { t, jobId, input } = await arranged(1);
    const capture = captureMetrics();
    try {
      await runWorkflow(definition, tasks(), input, { name: jobId }).result;
      const job = (await getJob(t.workspaceId, jobId))!;
      const runMetrics = () =>
        capture
          .documents()
          .map(metricOf)
          .filter((m) => m.name.startsWith('Export'));
      expect(runMetrics().map((m) => [m.name, m.name === 'ExportDuration' ? 'ms' : m.value, m.dimensions.outcome])).toEqual([
        ['ExportRuns', 1, 'completed'],
        ['ExportRows', job.rowCount, undefined],
        ['ExportDuration', 'ms', undefined],
      ]);
      expect(runMetrics()[2]!.value).toBe(Date.parse(job.completedAt!) - Date.parse(job.createdAt));
      await expect(markCompleted({ ...input, result: { objectKey: job.objectKey, rowCount: job.rowCount, capped: false } })).rejects.toMatchObject({
        name: 'ExportJobNotRunning',
      });
      expect(runMetrics()).toHaveLength(3);
    } finally {
      capture.stop();
    }
  });

  it('happy path: running -> sections -> archive with the manifest first -> completed with rowCount', async () => {
    const { t, members, jobId, input } = await arranged(2);
    expect((await getJob(t.workspaceId, jobId))!.status).toBe('pending');
    const out = await runWorkflow(definition, tasks(), input, { name: jobId }).result;
    expect(out).toMatchObject({ workspaceId: t.workspaceId, jobId, status: 'completed' });

    const job = (await getJob(t.workspaceId, jobId))!;
    expect(job).toMatchObject({ status: 'completed', rowCount: 4, error: null });
    expect(job.startedAt).not.toBeNull();
    expect(job.completedAt).not.toBeNull();
    const text = await archiveOf(job.objectKey!);
    expect(text.startsWith('{"manifest":')).toBe(true);
    const doc = JSON.parse(text);
    expect(Object.keys(doc)).toEqual(['manifest', 'members', 'orders', 'campaigns']);
    expect(doc.manifest.sections).toEqual([
      { name: 'members', recordCount: 2, capped: false },
      { name: 'orders', recordCount: 1, capped: false },
      { name: 'campaigns', recordCount: 1, capped: false },
    ]);
    expect(doc.members.map((m: { id: string }) => m.id).sort()).toEqual(members.map((m) => m.id).sort());
    expect(doc.orders[0]).toMatchObject({ memberId: members[0].id, total: 42.5, currency: 'EUR' });
    expect(doc.campaigns[0]).toMatchObject({ name: 'Spring', counts: { stock: 5, issued: 0, redeemed: 0, remaining: 5 } });
    // The staged parts are gone; the lock is free again: a new request starts a new job.
    const next = await startArchiveExport(t.workspaceId, { workflows: recordingWorkflows }, audit);
    expect(next.deduped).toBe(false);
  });

  it('while a job is live, 20 parallel starts all answer that job (deduped) and make nothing, run nothing', async () => {
    // The recording workflows never run the job: it stays pending for the whole burst.
    const { t, jobId } = await arranged(1);
    const before = starts.length;
    const burst = await Promise.all(Array.from({ length: 20 }, () => startArchiveExport(t.workspaceId, { workflows: recordingWorkflows }, audit)));
    expect(burst).toEqual(Array.from({ length: 20 }, () => ({ id: jobId, status: 'pending', deduped: true })));
    expect(starts.length).toBe(before);
  });

  it('a failing Task is caught: the job is failed with the step error, and the execution fails', async () => {
    const { t, jobId, input } = await arranged(1);
    const broken = {
      ...tasks(),
      BuildSection: async () => {
        throw Object.assign(new Error('the orders index is unreadable'), { name: 'SectionBroken' });
      },
    };
    await expect(runWorkflow(definition, broken, input, { name: jobId, retryIntervalMs: 1 }).result).rejects.toThrow();
    const job = (await getJob(t.workspaceId, jobId))!;
    expect(job.status).toBe('failed');
    expect(job.error).toContain('SectionBroken');
    expect(job.error).toContain('the orders index is unreadable');
    expect(job.completedAt).not.toBeNull();
    expect(job.objectKey).toBeNull();
    // Not stuck: the workspace's lock is released with it.
    expect((await startArchiveExport(t.workspaceId, { workflows: recordingWorkflows }, audit)).deduped).toBe(false);
  });

  it('a step that times out is caught as a failure too (States.Timeout)', async () => {
    const { t, jobId, input } = await arranged(1);
    const quick = structuredClone(definition) as typeof definition;
    (quick.States.Assemble as { TimeoutSeconds: number }).TimeoutSeconds = 1;
    const slow = { ...tasks(), Assemble: async () => sleep(3000).then(() => ({})) };
    await expect(runWorkflow(quick, slow, input, { name: jobId, retryIntervalMs: 1 }).result).rejects.toThrow();
    const job = (await getJob(t.workspaceId, jobId))!;
    expect(job.status).toBe('failed');
    expect(job.error).toContain('timed out');
  });

  it('a section over the cap holds exactly the cap and says capped: true', async () => {
    process.env.EXPORT_ARCHIVE_SECTION_CAP = '2';
    const { t, jobId, input } = await arranged(3);
    await runWorkflow(definition, tasks(), input, { name: jobId }).result;
    const job = (await getJob(t.workspaceId, jobId))!;
    expect(job.status).toBe('completed');
    const doc = JSON.parse(await archiveOf(job.objectKey!));
    expect(doc.manifest.sections[0]).toEqual({ name: 'members', recordCount: 2, capped: true });
    expect(doc.members).toHaveLength(2);
    expect(doc.manifest.sections[1]).toEqual({ name: 'orders', recordCount: 1, capped: false });
    expect(job.rowCount).toBe(2 + 1 + 1);
  });

  it('the campaigns section holds the campaigns with their grant counts, then the coupon pools, within one cap', async () => {
    const { t, members, jobId, input } = await arranged(1);
    const campaign = { name: 'Welcome bonus', status: 'active', trigger: { type: 'order' }, effect: { type: 'bonus_points', points: 15 } };
    const created = await call('POST', '/api/flash/campaigns', { token: t.token, body: campaign });
    expect(created.status).toBe(201);
    await newOrder(t.key, members[0].id, { total: 10 });
    await runWorkflow(definition, tasks(), input, { name: jobId }).result;
    const doc = JSON.parse(await archiveOf((await getJob(t.workspaceId, jobId))!.objectKey!));
    expect(doc.manifest.sections[2]).toEqual({ name: 'campaigns', recordCount: 2, capped: false });
    expect(doc.campaigns.map((r: { type: string }) => r.type)).toEqual(['campaign', 'coupon_pool']);
    expect(doc.campaigns[0]).toMatchObject({
      id: created.body.data.id,
      name: 'Welcome bonus',
      status: 'active',
      trigger: { type: 'order' },
      effect: { type: 'bonus_points', points: 15 },
      grants: 1,
      pointsGranted: 15,
    });
    expect(doc.campaigns[1]).toMatchObject({ name: 'Spring', counts: { stock: 5, issued: 0, redeemed: 0, remaining: 5 } });

    // A cap of 1: the campaign fills it, the pool is left out and the section says so.
    process.env.EXPORT_ARCHIVE_SECTION_CAP = '1';
    const again = await startArchiveExport(t.workspaceId, { workflows: recordingWorkflows }, audit);
    await runWorkflow(definition, tasks(), starts.find((x) => x.name === again.id)!.input, { name: again.id }).result;
    const capped = JSON.parse(await archiveOf((await getJob(t.workspaceId, again.id))!.objectKey!));
    expect(capped.manifest.sections[2]).toEqual({ name: 'campaigns', recordCount: 1, capped: true });
    expect(capped.campaigns.map((r: { type: string }) => r.type)).toEqual(['campaign']);
  });
});
