import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { config } from '../../shared/platform/config';
import {
  answerProblems,
  apiOf,
  arrange,
  is2xx,
  resolveUnknowns,
  startLoad,
  stateProblems,
  tally,
  workspaceKey,
  type Api,
  type Op,
  type Scenario,
} from '../support/fault-load';
import { isAlive, startPlatform, type RunningPlatform } from '../support/platform';

/**
 * Faults of the real DynamoDB Local process under a platform of this file's own (own DATA_DIR and
 * port: the JVM it kills and freezes is nobody else's), with a mixed load running through each
 * fault. The API's promises: an answer within the request deadline, in the one JSON error shape; a
 * 5xx only as 503 SERVICE_UNAVAILABLE (nothing applied) or OUTCOME_UNKNOWN (retry with the same
 * Idempotency-Key: exactly once); acknowledged writes kept; the service back without anyone's help.
 */

const env = {
  // Webhook numbers shrunk so a redelivery after a crash takes seconds, with room for a busy machine
  // (a visibility shorter than a slow delivery only adds duplicates).
  WEBHOOK_VISIBILITY_SECONDS: '5',
  WEBHOOK_BACKOFF_BASE_SECONDS: '1',
  WEBHOOK_BACKOFF_CAP_SECONDS: '2',
  WEBHOOK_DELIVERY_TIMEOUT_SECONDS: '3',
};

/** The service must be back, without anyone's help, this long after the fault ends. */
const RECOVERY_BOUND_MS = 30_000;

let platform: RunningPlatform;
let api: Api;

beforeAll(async () => {
  platform = await startPlatform({ env });
  api = apiOf(() => platform.baseUrl, await workspaceKey(platform.baseUrl, 'faults'));
}, 90_000);

afterAll(async () => {
  if (!platform) return;
  const { dynamodbPid } = await platform.runtime().catch(() => ({ dynamodbPid: 0 }));
  if (dynamodbPid && isAlive(dynamodbPid)) process.kill(dynamodbPid, 'SIGCONT');
  await platform.stop();
}, 30_000);

/** The JVM serving the platform now (runtime.json follows the supervisor's restarts). */
const jvmPid = async () => (await platform.runtime()).dynamodbPid;

/** Time until a points read of the scenario answers 200 again (at most RECOVERY_BOUND_MS). */
async function recovery(s: Scenario, since: number): Promise<number> {
  const deadline = since + RECOVERY_BOUND_MS;
  for (;;) {
    const a = await s.api('GET', `/api/v2/members/${s.members[0]}/points?limit=1`);
    if (is2xx(a)) return Date.now() - since;
    if (Date.now() > deadline)
      throw new Error(`not recovered within ${RECOVERY_BOUND_MS} ms: last answer ${a.status} ${JSON.stringify(a.body ?? a.transport)}`);
    await sleep(100);
  }
}

/** Resolves the unknowns, then every promise the answers made, and the invariants. */
async function verify(s: Scenario, ops: Op[]) {
  expect(answerProblems(ops)).toEqual([]);
  const summary = tally(ops);
  const resolved = await resolveUnknowns(s, ops);
  expect(answerProblems(ops)).toEqual([]);
  expect(await stateProblems(s, ops)).toEqual([]);
  return { ...summary, resolved };
}

describe('DynamoDB Local faults under load', () => {
  it('the data is file-backed in DATA_DIR (so a killed JVM must not lose acknowledged writes)', () => {
    expect(existsSync(join(platform.dataDir, 'dynamodb', 'shared-local-instance.db'))).toBe(true);
  });

  it('killed with SIGKILL mid-load: 503s within the deadline, nothing acknowledged lost, no 503 applied, back by itself', async () => {
    const s = await arrange(api, 'kill');
    const before = await jvmPid();
    const load = startLoad(s);
    await sleep(1500);
    load.burst(20, 15);
    await sleep(200);
    const killedAt = Date.now();
    process.kill(before, 'SIGKILL');
    // The supervisor restarts the JVM on the same port and data; the load keeps running through it.
    const recoveredMs = await recovery(s, killedAt);
    await sleep(1000);
    const ops = await load.stop();

    const after = await jvmPid();
    expect(after).not.toBe(before);
    expect(isAlive(after)).toBe(true);
    expect(platform.output()).toContain(`DynamoDB Local (pid ${before}) exited unexpectedly`);
    const summary = await verify(s, ops);
    console.log('kill:', JSON.stringify({ recoveredMs, ...summary }), platform.output().match(/DynamoDB Local is back.*/)?.[0]);
    expect(summary.ok).toBeGreaterThanOrEqual(5); // the load did real work
    expect(summary.unavailable + summary.unknown).toBeGreaterThan(0); // and the fault did bite
  }, 90_000);

  it('frozen with SIGSTOP past the deadline, then thawed: answers within the deadline, no write answered SERVICE_UNAVAILABLE applied on thaw', async () => {
    const s = await arrange(api, 'freeze');
    const pid = await jvmPid();
    const load = startLoad(s);
    await sleep(1500);
    load.burst(24, 15);
    await sleep(250);
    process.kill(pid, 'SIGSTOP');
    try {
      await sleep(config.http.requestDeadlineMs + 1000);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    const thawedAt = Date.now();
    const recoveredMs = await recovery(s, thawedAt);
    await sleep(1000);
    const ops = await load.stop();

    expect(await jvmPid()).toBe(pid); // a frozen JVM is not restarted: it comes back by itself
    const summary = await verify(s, ops);
    console.log('freeze:', JSON.stringify({ recoveredMs, ...summary }));
    expect(summary.ok).toBeGreaterThanOrEqual(5);
    expect(summary.unavailable + summary.unknown).toBeGreaterThan(0);
  }, 120_000);
});
