import { tmpdir } from 'node:os';
import { beforeAll, describe, expect, it } from 'vitest';
import { provideLocalAdapters } from '../../../../infra/local/adapters';
import { LOCAL_BUCKETS } from '../../../../infra/local/object-store';
import { getJob, getSchedule, listJobs } from '../../../../shared/exports/repository';
import type { Principal } from '../../../../shared/platform/contract/principal';
import { createSchedule, tick } from '../../../../shared/exports/schedules';
import type { Workflows } from '../../../../shared/platform/ports/workflows';
import { handler as schedulerHandler } from '../../../../functions/export-scheduler/handler';
import { tenant } from '../../../support/fixtures';
import { platformTable } from '../../../support/table';

/**
 * The schedules' tick against the platform's DynamoDB Local: however many ticks find a period due,
 * in parallel or one after another, late or early, the schedule starts one run per period.
 */

const started: string[] = [];
const workflows: Workflows = { start: async (_w, name) => void started.push(name) };
const noEgress = { egress: { check: () => undefined } };

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

async function scheduled(createdAt: Date) {
  const t = await tenant('sched');
  const principal = { kind: 'session', userId: t.userId, workspaceId: t.workspaceId, role: 'owner' } as unknown as Principal;
  const audit = { actor: { type: 'user' as const, id: t.userId }, requestId: 'req_schedule_test' };
  const s = await createSchedule(
    t.workspaceId,
    { entity: 'members', format: 'csv', frequency: 'daily', hour: 6, timezone: 'Europe/Berlin' },
    principal,
    noEgress,
    audit,
    createdAt,
  );
  const jobsOf = async () => (await listJobs(t.workspaceId, 'operational', 100)).items;
  return { t, s, jobsOf };
}

describe('export schedules', () => {
  it('a due schedule runs exactly once per period across repeated, parallel and late ticks', async () => {
    // Created 2026-03-04 07:00 Berlin: the first run is 2026-03-05 06:00 Berlin (05:00 UTC).
    const { t, s, jobsOf } = await scheduled(new Date('2026-03-04T06:00:00Z'));
    await tick(workflows, new Date('2026-03-04T23:00:00Z'));
    await tick(workflows, new Date('2026-03-05T04:59:00Z'));
    expect(await jobsOf()).toHaveLength(0);

    // Due: ten ticks at once, then more, some late (a missed tick) within the same period.
    await Promise.all(Array.from({ length: 10 }, () => tick(workflows, new Date('2026-03-05T05:00:00Z'))));
    await tick(workflows, new Date('2026-03-05T05:15:00Z'));
    await tick(workflows, new Date('2026-03-05T20:00:00Z'));
    const first = await jobsOf();
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ kind: 'operational', dataset: 'members', format: 'csv', status: 'pending', scheduleId: s.id });
    expect(started.filter((n) => n === first[0]!.id)).toHaveLength(1);
    expect(await getSchedule(t.workspaceId, s.id)).toMatchObject({ lastPeriod: '2026-03-05', lastJobId: first[0]!.id });

    // The next period runs once more; a retried tick of an older time changes nothing.
    await Promise.all([tick(workflows, new Date('2026-03-06T05:30:00Z')), tick(workflows, new Date('2026-03-06T05:30:00Z'))]);
    await tick(workflows, new Date('2026-03-05T06:00:00Z'));
    const jobs = await jobsOf();
    expect(jobs).toHaveLength(2);
    expect((await getJob(t.workspaceId, jobs[0]!.id))!.createdAt).toBe('2026-03-06T05:30:00.000Z');
  });

  it('the scheduler function ticks the same way (EventBridge Scheduled Event)', async () => {
    const { jobsOf } = await scheduled(new Date(Date.now() - 3 * 86_400_000));
    const event = {
      version: '0',
      id: 'x',
      'detail-type': 'Scheduled Event',
      source: 'aws.events',
      account: '0',
      time: new Date().toISOString(),
      region: 'eu-west-1',
      resources: [],
      detail: {},
    };
    // The local runtime provides no workflow runner in this process: the run starts through the
    // provided port if set, so give it the recording one.
    const { provideAdapters } = await import('../../../../shared/platform/adapters/provided');
    provideAdapters({ workflows });
    await schedulerHandler(event as never);
    await schedulerHandler(event as never);
    expect(await jobsOf()).toHaveLength(1);
  });
});
