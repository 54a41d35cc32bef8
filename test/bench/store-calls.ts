import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileKeyVault } from '../../infra/local/file-key-vault';
import { LocalSecrets } from '../../infra/local/local-secrets';
import { provideAdapters } from '../../shared/platform/adapters/provided';
import { secretSealerFromConfig } from '../../shared/platform/adapters/secret-sealer';
import { webhookSettings } from '../../shared/platform/config/index';
import { countStoreCalls, type StoreCallTotals } from '../../shared/platform/data/store-calls';
import { SCOPES } from '../../shared/platform/contract/scopes';
import { attemptDelivery } from '../../shared/webhooks/delivery';
import { deliveryIdOf } from '../../shared/webhooks/delivery-id';
import { envelopeOf, fanOut } from '../../shared/webhooks/fanout';
import { event } from '../../shared/platform/events/outbox';
import { runDueProgramWork } from '../../shared/campaigns/due-work';
import type { Egress } from '../../shared/platform/ports/egress';
import { logger } from '../../shared/platform/observability/logger';
import type { OutgoingMessage, Queue } from '../../shared/platform/ports/queue';
import { inProcess } from '../support/in-process';
import type { RunningPlatform } from '../support/platform';

/**
 * DynamoDB requests per operation: one call of each main operation, made in this process (the area
 * handlers with their whole middy chain, the webhook consumers' domain functions) against the
 * platform's DynamoDB Local, with the benchmark-mode middleware of `shared/platform/data/store-calls.ts`
 * counting requests, items and capacity. Each operation runs once uncounted first (a warm
 * container: the API key's lastUsedAt stamp and the per-container caches are filled), then three times
 * counted; the smaller count is the operation's. Writes carry an Idempotency-Key, as integrations
 * are told to send.
 *
 * `MINIMUM` is what each operation cannot do without; docs/performance.md gives the reasoning.
 */

export const OPERATIONS = [
  'authenticated GET',
  'create member',
  'create order',
  'points change',
  'refund',
  'coupon issue',
  'coupon redeem',
  'object record create',
  'object record list',
  'object record list (filtered)',
  'webhook fan-out',
  'webhook delivery',
  'points expiry',
] as const;
export type Operation = (typeof OPERATIONS)[number];

export interface Minimum {
  calls: number;
  itemsRead: number;
  itemsWritten: number;
}

/** Measured runs per operation after the warm-up; the smallest count is kept. */
const MEASURED_RUNS = 3;

/**
 * The least each operation needs on a warm container (docs/performance.md, "Store calls per operation").
 * Every API operation also counts once against its workspace's request budget (one conditional ADD
 * of the window's counter: a request and an item written), which the comments below leave out.
 */
export const MINIMUM: Record<Operation, Minimum> = {
  // API key lookup + the member.
  'authenticated GET': { calls: 3, itemsRead: 2, itemsWritten: 1 },
  // Key; the Idempotency-Key claim (a conditional put); one transaction: member, e-mail lookup, overview totals, outbox, idempotency record.
  'create member': { calls: 4, itemsRead: 1, itemsWritten: 7 },
  // Key + member and its tier record together (one TransactGetItems); the claim; one transaction: member, ledger entry, tier record, order, overview totals, outbox, idempotency record.
  'create order': { calls: 5, itemsRead: 3, itemsWritten: 9 },
  // Key + member + its tier record; the claim; one transaction: member, ledger entry, tier record, overview totals, outbox, the audit entry (a manual change is audited whoever makes it), idempotency record.
  'points change': { calls: 6, itemsRead: 3, itemsWritten: 9 },
  // Key + order + member + its tier record; the claim; one transaction: member, ledger entry, tier record, order, refund, overview totals, outbox, idempotency record.
  refund: { calls: 7, itemsRead: 4, itemsWritten: 10 },
  // Key + pool; the claim; one transaction: member check, stock, code, coupon, outbox, idempotency record.
  'coupon issue': { calls: 5, itemsRead: 3, itemsWritten: 7 },
  // Key + coupon; the claim; one transaction: coupon, member check, pool counter, outbox, idempotency record.
  'coupon redeem': { calls: 5, itemsRead: 3, itemsWritten: 6 },
  // Key; the claim; the write-rate guard (one conditional update per window, 2 windows); one
  // transaction: type count, member check, record, 2 value counters and 2 value entries (state,
  // owner), outbox, idempotency record.
  'object record create': { calls: 6, itemsRead: 2, itemsWritten: 12 },
  // Key + the type (definition and live count) + one query of the page (20 items).
  'object record list': { calls: 4, itemsRead: 22, itemsWritten: 1 },
  // Key + the type + the value's counter (the total) + one query of the value's entries (10 of them).
  'object record list (filtered)': { calls: 5, itemsRead: 13, itemsWritten: 1 },
  // Subscriptions from the per-container cache.
  'webhook fan-out': { calls: 0, itemsRead: 0, itemsWritten: 0 },
  // The endpoint (URL, secrets, health) + one transaction: attempt log entry and delivery state.
  'webhook delivery': { calls: 2, itemsRead: 1, itemsWritten: 2 },
  // The program's due work for one member whose lot expired: the due index (one query, the member's
  // entry) + the member + its tier record; one transaction: member (balance, lots, due key), expire
  // entry, tier record, outbox; then the tier review's index (one query, nothing due).
  'points expiry': { calls: 6, itemsRead: 3, itemsWritten: 5 },
};

export type StoreCallRow = { operation: Operation; measured: StoreCallTotals; minimum: Minimum };

const expectStatus = (what: string, res: { status: number; body: unknown }, status: number) => {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as any;
};

/** A queue that keeps what is sent (the fan-out's messages), for the measurement. */
class KeptQueue implements Queue {
  readonly sent: OutgoingMessage[] = [];
  async send(_queue: string, messages: OutgoingMessage[]): Promise<void> {
    this.sent.push(...messages);
  }
  async changeVisibility(): Promise<void> {}
}

/** A receiver that always answers 200 (the delivery's store requests are what is counted). */
const answering200: Egress = {
  check: () => undefined,
  post: async () => ({ kind: 'response', status: 200, headers: {}, bodyExcerpt: '', durationMs: 1 }),
};

/**
 * Measures every operation once. The process must already be configured for the platform's store
 * (STAGE, TABLE_NAME, DYNAMODB_ENDPOINT, AWS_REGION): see `configureFor`.
 */
export async function measureStoreCalls(): Promise<StoreCallRow[]> {
  const counter = countStoreCalls();
  const run = `${Date.now().toString(36)}-${randomUUID().slice(0, 6)}`;
  const reg = expectStatus(
    'register',
    await inProcess('POST', '/api/v2/auth/register', {
      body: { workspaceName: 'Store calls', email: `calls-${run}@example.test`, password: 'bench password 1' },
    }),
    201,
  );
  const session = reg.data.session.token as string;
  const workspaceId = reg.data.workspace.id as string;
  const key = expectStatus('api key', await inProcess('POST', '/api/v2/api-keys', { token: session, body: { name: 'calls', scopes: [...SCOPES] } }), 201).data
    .key as string;
  let seq = 0;
  const idem = () => ({ 'idempotency-key': `calls-${run}-${++seq}` });
  const api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => inProcess(method, path, { token: key, body, headers });

  // Set-up: members with points, orders to refund, a coupon pool, an object type, two endpoints.
  const member = async () => expectStatus('member', await api('POST', '/api/v2/members', { email: `m-${run}-${++seq}@example.test` }), 201).data.id as string;
  const holder = await member();
  expectStatus('seed points', await api('POST', `/api/v2/members/${holder}/points`, { type: 'earn', amount: 100, reason: 'seed' }), 201);
  const order = async (memberId: string) => {
    const externalOrderId = `calls-${run}-${++seq}`;
    expectStatus(
      'order',
      await api('POST', '/api/v2/orders', { externalOrderId, memberId, currency: 'EUR', total: 40, occurredAt: new Date().toISOString() }, idem()),
      201,
    );
    return externalOrderId;
  };
  // One per run, the warm-up included.
  const toRefund: string[] = [];
  for (let i = 0; i < 1 + MEASURED_RUNS; i++) toRefund.push(await order(holder));
  const pool = expectStatus(
    'pool',
    await api('POST', '/api/v2/coupons/pools', {
      name: 'Calls',
      discount: { type: 'percent', value: 10 },
      codeConfig: { mode: 'generated', prefix: 'CALLS-' },
      stock: 100,
    }),
    201,
  ).data.id as string;
  const coupon = async () =>
    expectStatus('issue', await api('POST', '/api/v2/coupons/issue', { poolId: pool, memberId: holder }, idem()), 201).data.id as string;
  const toRedeem: string[] = [];
  for (let i = 0; i < 1 + MEASURED_RUNS; i++) toRedeem.push(await coupon());
  const type = `calls_${run.replace(/[^a-z0-9]/g, '_')}`.slice(0, 40);
  expectStatus(
    'object type',
    await inProcess('PUT', `/api/flash/objects/types/${type}`, {
      token: session,
      body: {
        label: 'Calls',
        status: 'published',
        apiVisible: true,
        titleField: 'title',
        fields: [
          { key: 'title', type: 'text', required: true },
          { key: 'state', type: 'enum', required: true, options: ['open', 'done'] },
          { key: 'owner', type: 'member_ref' },
        ],
      },
    }),
    200,
  );
  const record = async () =>
    expectStatus(
      'record',
      await api('POST', `/api/v2/objects/${type}/records`, { data: { title: `Job ${++seq}`, state: 'open', owner: holder } }, idem()),
      201,
    );
  for (let i = 0; i < 20; i++) await record();
  // Records of another value, listed by the filtered list (created last, so an index scan would read past all the others).
  for (let i = 0; i < 12; i++)
    expectStatus('record', await api('POST', `/api/v2/objects/${type}/records`, { data: { title: `Done ${++seq}`, state: 'done' } }, idem()), 201);
  // Subscribed to an event none of the operations above emits: the platform's own pipeline sends nothing.
  const endpoints: string[] = [];
  for (const n of [1, 2]) {
    const created = expectStatus(
      'endpoint',
      await api('POST', '/api/v2/webhooks', { url: `https://hooks-${n}.example.invalid/calls`, eventTypes: ['capture.created'] }),
      201,
    );
    endpoints.push(created.data.id as string);
  }

  // Points that expire a day after the earn: four members, each earning once (one per measured run,
  // the warm-up included), each run at the moment the next of them expires.
  const rules = expectStatus('program', await inProcess('GET', '/api/flash/program', { token: session }), 200).data;
  expectStatus(
    'program',
    await inProcess('PUT', '/api/flash/program', {
      token: session,
      body: { earn: rules.earn, tiers: rules.tiers, points: { expiry: { policy: 'fixed_days', days: 1 }, warnDays: [], pendingDays: 0 } },
    }),
    200,
  );
  const expiries: Date[] = [];
  for (let i = 0; i < 1 + MEASURED_RUNS; i++) {
    const m = await member();
    expectStatus('lot', await api('POST', `/api/v2/members/${m}/points`, { type: 'earn', amount: 10, reason: 'expires' }), 201);
    expiries.push(new Date(expectStatus('expiring', await api('GET', `/api/v2/members/${m}/points`), 200).data.expiring[0].expiresAt));
  }

  const operations: Record<Operation, () => Promise<unknown>> = {
    'authenticated GET': async () => expectStatus('get member', await api('GET', `/api/v2/members/${holder}`), 200),
    'create member': async () =>
      expectStatus('create member', await api('POST', '/api/v2/members', { email: `new-${run}-${++seq}@example.test` }, idem()), 201),
    'create order': async () => order(holder),
    'points change': async () =>
      expectStatus('points', await api('POST', `/api/v2/members/${holder}/points`, { type: 'earn', amount: 5, reason: 'calls' }, idem()), 201),
    refund: async () => expectStatus('refund', await api('POST', `/api/v2/orders/${toRefund.shift()}/refund`, { amount: 10 }, idem()), 200),
    'coupon issue': coupon,
    'coupon redeem': async () => expectStatus('redeem', await api('POST', `/api/v2/coupons/${toRedeem.shift()}/redeem`, {}, idem()), 200),
    'object record create': record,
    'object record list': async () => expectStatus('list', await api('GET', `/api/v2/objects/${type}/records?limit=20`), 200),
    'object record list (filtered)': async () => {
      const list = expectStatus('filtered list', await api('GET', `/api/v2/objects/${type}/records?f_state=done&sortBy=title_asc&limit=10`), 200);
      if (list.data.length !== 10 || list.total !== 12) throw new Error(`filtered list: ${list.data.length} records, total ${list.total}`);
    },
    'webhook fan-out': async () => {
      const queue = new KeptQueue();
      const sent = await fanOut(workspaceId, [event('capture.created', { resource_id: `cap_${run}` })], queue);
      if (sent !== endpoints.length) throw new Error(`fan-out: ${sent} messages for ${endpoints.length} endpoints`);
    },
    'webhook delivery': async () => {
      const e = event('capture.created', { resource_id: `cap_${run}` });
      const next = await attemptDelivery(
        {
          workspaceId,
          endpointId: endpoints[0]!,
          deliveryId: deliveryIdOf(e.id, endpoints[0]!),
          eventId: e.id,
          eventType: e.type,
          payload: envelopeOf(e),
          trigger: 'event',
        },
        1,
        { egress: answering200, settings: webhookSettings(), sealer: secretSealerFromConfig() },
      );
      if (!next.ack) throw new Error('delivery: not acknowledged');
    },
    'points expiry': async () => {
      const done = await runDueProgramWork(workspaceId, expiries.shift()!);
      if (done.points !== 1) throw new Error(`points expiry: ${JSON.stringify(done)} members settled, not 1`);
    },
  };

  const rows: StoreCallRow[] = [];
  for (const operation of OPERATIONS) {
    await operations[operation]();
    // Several times, keeping the smallest count: a per-container cache (5 s) that happened to expire
    // during a measurement is read again there (once per expiry), not on every call; on a busy
    // machine two runs in a row could each meet an expiry of one cache or another.
    let least: StoreCallRow['measured'] | undefined;
    for (let run = 0; run < MEASURED_RUNS; run++) {
      const totals = (await counter.during(operations[operation])).totals;
      if (!least || totals.calls < least.calls) least = totals;
    }
    rows.push({ operation, measured: least!, minimum: MINIMUM[operation] });
  }
  return rows;
}

/**
 * Points this process at the platform's store (read lazily by the modules under test). The
 * write-rate guard gets the numbers the test platform runs with (it has its own tests): this
 * process counts requests, it does not measure the guard's budget on a busy machine.
 */
export async function configureFor(platform: Pick<RunningPlatform, 'runtime'>, opts: { quiet?: boolean } = {}): Promise<void> {
  const runtime = await platform.runtime();
  Object.assign(process.env, {
    STAGE: 'local',
    TABLE_NAME: runtime.tableName,
    DYNAMODB_ENDPOINT: runtime.dynamodbEndpoint,
    AWS_REGION: 'eu-west-1',
    OBJECTS_RATE_PER_SECOND: '1000',
    OBJECTS_RATE_BURST: '2000',
    OBJECTS_RATE_GUARD_TIMEOUT_MS: '10000',
  });
  // The in-process handlers seal and open the endpoints' signing secrets with a key of their own.
  // And sign page cursors with the local runtime's key (Secrets Manager in AWS, which is no DynamoDB call).
  provideAdapters({
    keyVault: new FileKeyVault(join(tmpdir(), 'loyalty-store-calls')),
    secrets: new LocalSecrets(join(tmpdir(), 'loyalty-store-calls')),
  });
  // The request log of the in-process handlers would bury the benchmark's output.
  if (opts.quiet) logger.setLogLevel('ERROR');
}

/** The benchmark row: per operation, the counts next to the minimum. */
export async function storeCalls(platform: RunningPlatform) {
  await configureFor(platform, { quiet: true });
  const rows = await measureStoreCalls();
  return {
    name: 'store calls per operation (warm container, Idempotency-Key on writes): measured vs minimum',
    operations: Object.fromEntries(
      rows.map((r) => [
        r.operation,
        {
          calls: `${r.measured.calls} (min ${r.minimum.calls})`,
          itemsRead: `${r.measured.itemsRead} (min ${r.minimum.itemsRead})`,
          itemsWritten: `${r.measured.itemsWritten} (min ${r.minimum.itemsWritten})`,
          capacityUnits: r.measured.capacityUnits,
          requests: r.measured.operations,
        },
      ]),
    ),
    aboveMinimum: rows.filter((r) => r.measured.calls > r.minimum.calls).map((r) => r.operation),
  };
}
