import { BatchWriteCommand, type DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { config } from '../../shared/platform/config';
import { indexKeysOf, indexPartition } from '../../shared/platform/data/keys';
import { createMemberSteps, getMember, ledgerEntryStep, ledgerPage } from '../../shared/members/repository';
import { memberTierStep } from '../../shared/members/tier-repository';
import { countStoreCalls } from '../../shared/platform/data/store-calls';
import { lotsAfter } from '../../shared/members/points-lots';
import { newMemberRecord } from '../../shared/members/service';
import { evaluateMemberTier } from '../../shared/members/tier-state';
import { DAY_MS } from '../../shared/program/calendar';
import { runDueProgramWork } from '../../shared/campaigns/due-work';
import { NO_LOTS, nextDueAt } from '../../shared/members/member-lots';
import type { ProgramRules } from '../../shared/program/schemas';
import { rulesOf } from '../../shared/program/service';
import { newId } from '../../shared/platform/ids';
import type { LedgerEntryRecord, MemberRecord, MemberTierRecord } from '../../shared/members/entities';
import { inProcess } from '../support/in-process';
import { documentClientFor, type RunningPlatform } from '../support/platform';
import { configureFor } from './store-calls';

/**
 * The expiry run: `members` members of one workspace (points expire 30 days after the earn, no
 * warnings), each holding three lots of which the oldest expired a day before the run's `now`, and
 * `runDueProgramWork(workspaceId, now)` made in this process against the platform's DynamoDB Local,
 * as the schedule's function makes it for each workspace. Reports members per second, DynamoDB
 * requests per member (the counter of `shared/platform/data/store-calls.ts`), the peak RSS of this process
 * during the run, and a figure on paper for 100,000 members in AWS. Every member is checked after
 * the run: the expired lot gone, the two others kept, nothing left due by `now`.
 *
 * The members are seeded straight into the table (in batches, outside the measured time), built
 * with the product's own record, key and step builders and the pure lots and tier functions a
 * points change runs: three earns replayed per member, each at its own time in the past.
 */

const round = (n: number) => Math.round(n * 100) / 100;
/** Progress on stderr (stdout carries the JSON). */
const progress = (line: string) => process.stderr.write(`expiry-run: ${line}\n`);
const MiB = 1024 * 1024;
const EXPIRY_DAYS = 30;
/** Days before `now` each of a member's three lots was earned: the first is past its 30 days. */
const EARNED_DAYS_AGO = [31, 20, 5] as const;

interface SeededMember {
  items: Record<string, unknown>[];
  expiring: number;
  kept: number;
}

/** Points of a member's lots, varied by member so that a wrong lot taken shows in the totals. */
const lotPoints = (i: number): [number, number, number] => [10 + (i % 50), 20, 5 + (i % 7)];

/** One earn as the ledger writes it (a manual earn through the API), at revision `rev`. */
function earnEntry(member: MemberRecord, amount: number, at: number): LedgerEntryRecord {
  return {
    id: newId('ple', at),
    memberId: member.id,
    rev: member.rev + 1,
    type: 'earn',
    amount,
    balanceAfter: member.balance + amount,
    reason: 'Expiry run seed',
    source: { type: 'manual', orderId: null, externalOrderId: null, apiKeyId: null },
    createdAt: new Date(at).toISOString(),
  };
}

/**
 * Member `i`: created, then three earns replayed with the functions a points change runs (lots,
 * tier state), and the items the product would hold afterwards: the member with its due and
 * activity index keys (as `balanceStep` sets them), its ledger entries and its tier state.
 */
async function seededMember(workspaceId: string, rules: ProgramRules, run: string, i: number, now: number): Promise<SeededMember> {
  // Times a second apart, 3,600 of them: the due index holds the members at many due times, not one.
  const offset = (i % 3600) * 1000;
  const created = now - 40 * DAY_MS - offset;
  let member = await newMemberRecord(workspaceId, { externalId: `expiry-${run}-${i}` }, new Date(created));
  let tierRecord: MemberTierRecord | undefined;
  let lots = NO_LOTS;
  const entries: LedgerEntryRecord[] = [];
  const points = lotPoints(i);
  EARNED_DAYS_AGO.forEach((days, k) => {
    const at = now - days * DAY_MS - offset;
    const entry = earnEntry(member, points[k]!, at);
    lots = lotsAfter(lots, [entry], rules, at);
    const next = { lifetime: member.lifetime + entry.amount, orderCount: member.orderCount };
    const tier = evaluateMemberTier(member, tierRecord, { next, points: entry.amount, orders: 0 }, rules, new Date(at));
    tierRecord = tier.record;
    member = { ...member, balance: entry.balanceAfter, lifetime: next.lifetime, tier: tier.tier, rev: entry.rev, lots, updatedAt: entry.createdAt };
    entries.push(entry);
  });
  const dueAt = nextDueAt(lots, rules.points);
  if (dueAt === null || dueAt > now) throw new Error(`seed: member ${i} has nothing due by the run (${dueAt})`);
  // The member and its externalId lookup, as a creation writes them.
  const [put, ...lookups] = createMemberSteps(member).map((step) => step.op.Put!.Item!);
  const memberItem = {
    ...put,
    ...indexKeysOf('memberDue', { workspaceId, memberId: member.id, dueAt: new Date(dueAt).toISOString() }),
    ...indexKeysOf('memberActivity', { workspaceId, memberId: member.id, lastActivityAt: new Date(lots.lastActivityAt!).toISOString() }),
  };
  return {
    items: [
      memberItem,
      ...lookups,
      ...entries.map((e) => ledgerEntryStep(workspaceId, e).op.Put!.Item!),
      memberTierStep(workspaceId, tierRecord!).op.Put!.Item!,
    ],
    expiring: points[0],
    kept: points[1] + points[2],
  };
}

/** Writes the items 25 to a request, `parallel` requests at a time, until none is left unprocessed. */
async function batchWrite(doc: DynamoDBDocumentClient, table: string, items: Record<string, unknown>[], parallel = 16): Promise<void> {
  const chunks: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += 25) chunks.push(items.slice(i, i + 25));
  const writeChunk = async (chunk: Record<string, unknown>[]) => {
    let request: Record<string, any> | undefined = { [table]: chunk.map((Item) => ({ PutRequest: { Item } })) };
    while (request) {
      const out: { UnprocessedItems?: Record<string, any> } = await doc.send(new BatchWriteCommand({ RequestItems: request }));
      request = out.UnprocessedItems && Object.keys(out.UnprocessedItems).length ? out.UnprocessedItems : undefined;
    }
  };
  for (let i = 0; i < chunks.length; i += parallel) await Promise.all(chunks.slice(i, i + parallel).map(writeChunk));
}

/** A workspace whose points expire 30 days after the earn, without warnings or pending time. */
async function expiryWorkspace(): Promise<string> {
  const body = (what: string, res: { status: number; body: any }, status: number) => {
    if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data;
  };
  const reg = body(
    'register',
    await inProcess('POST', '/api/v2/auth/register', {
      body: { workspaceName: 'Expiry run', email: `expiry-${Date.now()}-${randomUUID().slice(0, 6)}@example.test`, password: 'bench password 1' },
    }),
    201,
  );
  const token = reg.session.token as string;
  const rules = body('program', await inProcess('GET', '/api/flash/program', { token }), 200);
  const points = { expiry: { policy: 'fixed_days', days: EXPIRY_DAYS }, warnDays: [], pendingDays: 0 };
  body('program', await inProcess('PUT', '/api/flash/program', { token, body: { earn: rules.earn, tiers: rules.tiers, points } }), 200);
  return reg.workspace.id as string;
}

/** Samples this process's resident set every 20 ms while `work` runs; the largest sample is the peak. */
async function withPeakRss<T>(work: () => Promise<T>): Promise<{ result: T; peakRss: number }> {
  let peakRss = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
  }, 20);
  try {
    const result = await work();
    return { result, peakRss: Math.max(peakRss, process.memoryUsage.rss()) };
  } finally {
    clearInterval(timer);
  }
}

/**
 * Every member after the run, read with a raw paged Query of the members' index (not counted): the
 * balance is the two lots left, two lots remain, and no member is still due by `now`.
 */
async function checkAll(doc: DynamoDBDocumentClient, table: string, workspaceId: string, expected: Map<string, number>, now: string) {
  let wrong = 0;
  let stillDue = 0;
  let read = 0;
  let balances = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const out = await doc.send(
      new QueryCommand({
        TableName: table,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': indexPartition('member', 'gsi1', { workspaceId }) },
        ExclusiveStartKey: start,
      }),
    );
    for (const m of out.Items ?? []) {
      read++;
      balances += m.balance as number;
      if (m.balance !== expected.get(m.id as string) || m.lots?.lots?.length !== 2) wrong++;
      if (typeof m.gsi2sk === 'string' && m.gsi2sk <= `${now}#~`) stillDue++;
    }
    start = out.LastEvaluatedKey;
  } while (start);
  return { read, wrong, stillDue, balances };
}

/** Some members' newest ledger entry, read through the product: an expiry of the oldest lot. */
async function checkLedgers(workspaceId: string, sample: { id: string; expiring: number; kept: number }[]): Promise<number> {
  let wrong = 0;
  for (const m of sample) {
    const [newest] = (await ledgerPage(workspaceId, m.id, 1)).items;
    const member = await getMember(workspaceId, m.id);
    if (newest?.type !== 'expire' || newest.amount !== -m.expiring || newest.balanceAfter !== m.kept || member?.balance !== m.kept) wrong++;
  }
  return wrong;
}

/**
 * On paper, 100,000 members of one workspace in AWS: the run settles the members of a page of the
 * due index `memberConcurrency` at a time, so their round trips overlap while their CPU does not: a
 * member costs the larger of its CPU and its round trips shared by the lanes. Assumed in-region
 * latencies (p50): the two reads of a member in parallel 5 ms, its transaction of 4 items 12 ms, the
 * due index query 8 ms per page of 50; CPU as measured here, x1.7 for the 0.58 vCPU of a 1,024 MB function.
 */
export function aws100k(cpuMsPerMember: number) {
  const members = 100_000;
  const readMs = 5;
  const transactMs = 12;
  const queryMsPerMember = 8 / 50;
  const cpuMs = cpuMsPerMember * 1.7;
  const lanes = config.programDue.memberConcurrency;
  const perMemberMs = Math.max(cpuMs, (readMs + transactMs) / lanes) + queryMsPerMember;
  const totalS = (members * perMemberMs) / 1000;
  const perInvocation = Math.floor((config.programDue.timeoutSeconds * 1000) / perMemberMs);
  const invocations = Math.ceil(members / perInvocation);
  return {
    members,
    perMemberMs: round(perMemberMs),
    minutes: round(totalS / 60),
    membersPerSecond: round(1000 / perMemberMs),
    membersPerInvocation: perInvocation,
    scheduledRunsNeeded: invocations,
    hoursUntilAllExpired: round(((invocations - 1) * config.programDue.tickMinutes + config.programDue.timeoutSeconds / 60) / 60),
    assumptions:
      `members ${lanes} at a time (settleDueMembers), a member costing the larger of its CPU and its round trips / ${lanes}; per member: member + tier record read in parallel ${readMs} ms, ` +
      `one TransactWriteItems of 4 items ${transactMs} ms, the due index query 8 ms per 50 members, CPU ${round(cpuMsPerMember)} ms measured here x1.7 ` +
      `(1,024 MB function); the schedule's function stops at ${config.programDue.timeoutSeconds} s and runs every ${config.programDue.tickMinutes} min, ` +
      'the next run going on where the last stopped (what ran is no longer due)',
  };
}

export async function expiryRun(platform: RunningPlatform, opts: { members: number }) {
  await configureFor(platform, { quiet: true });
  const runtime = await platform.runtime();
  const doc = documentClientFor(runtime);
  const workspaceId = await expiryWorkspace();
  const rules = await rulesOf(workspaceId);
  // A year ahead of the real clock: the runtime's own schedule (every 15 minutes, at the real time)
  // finds nothing of these members due, so it cannot settle any of them during the measured run.
  const now = Date.now() + 365 * DAY_MS;
  const run = randomUUID().slice(0, 8);

  const seedStart = performance.now();
  const expected = new Map<string, number>();
  const sample: { id: string; expiring: number; kept: number }[] = [];
  let seededExpiring = 0;
  const every = Math.max(1, Math.floor(opts.members / 25));
  for (let from = 0; from < opts.members; from += 1000) {
    // One after another: the program rules come from the per-container cache (one read when it expires), not a read per member.
    const seeded: SeededMember[] = [];
    for (let k = from; k < Math.min(from + 1000, opts.members); k++) seeded.push(await seededMember(workspaceId, rules, run, k, now));
    seeded.forEach((s, k) => {
      const id = s.items[0]!.id as string;
      expected.set(id, s.kept);
      seededExpiring += s.expiring;
      if ((from + k) % every === 0) sample.push({ id, expiring: s.expiring, kept: s.kept });
    });
    await batchWrite(
      doc,
      runtime.tableName,
      seeded.flatMap((s) => s.items),
    );
  }
  const seedMs = performance.now() - seedStart;
  progress(`seeded ${opts.members} members in ${Math.round(seedMs)} ms`);
  return measured(opts.members, { doc, table: runtime.tableName, workspaceId, now, expected, sample, seededExpiring, seedMs });
}

async function measured(
  members: number,
  s: {
    doc: DynamoDBDocumentClient;
    table: string;
    workspaceId: string;
    now: number;
    expected: Map<string, number>;
    sample: { id: string; expiring: number; kept: number }[];
    seededExpiring: number;
    seedMs: number;
  },
) {
  const counter = countStoreCalls();
  // With `NODE_OPTIONS=--expose-gc`: the heap the run leaves behind once collected (garbage is not growth).
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const rssBefore = process.memoryUsage.rss();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const { result, peakRss } = await withPeakRss(() => counter.during(() => runDueProgramWork(s.workspaceId, new Date(s.now))));
  const ms = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuMsPerMember = (cpu.user + cpu.system) / 1000 / members;
  gc?.();
  const heapLeftMiB = gc ? round((process.memoryUsage().heapUsed - heapBefore) / MiB) : undefined;
  progress(`run done in ${Math.round(ms)} ms: ${JSON.stringify(result.result)}`);
  const totals = result.totals;

  const after = await checkAll(s.doc, s.table, s.workspaceId, s.expected, new Date(s.now).toISOString());
  const keptTotal = [...s.expected.values()].reduce((a, b) => a + b, 0);
  const expiredTotal = keptTotal + s.seededExpiring - after.balances;
  const wrongLedgers = await checkLedgers(s.workspaceId, s.sample);
  const correct =
    result.result.points === members &&
    after.read === members &&
    after.wrong === 0 &&
    after.stillDue === 0 &&
    expiredTotal === s.seededExpiring &&
    wrongLedgers === 0;
  return {
    name: `expiry run: ${members} members of one workspace, each with 3 lots of which the oldest expired (runDueProgramWork in process, DynamoDB Local)`,
    members,
    seedMs: Math.round(s.seedMs),
    ms: Math.round(ms),
    membersPerSecond: round((members / ms) * 1000),
    storeCallsPerMember: round(totals.calls / members),
    storeCalls: { ...totals, floorPerMember: '3 (member + tier record read, one transaction) + 1/50 (the due index, a page of 50)' },
    cpuMsPerMember: round(cpuMsPerMember),
    peakRssMiB: round(peakRss / MiB),
    rssBeforeMiB: round(rssBefore / MiB),
    heapLeftAfterGcMiB: heapLeftMiB,
    done: result.result,
    check: { correct, membersSettled: result.result.points, membersRead: after.read, wrongMembers: after.wrong, stillDue: after.stillDue, wrongLedgers },
    expiredPoints: { seeded: s.seededExpiring, expired: expiredTotal },
    aws100k: aws100k(cpuMsPerMember),
  };
}
