import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { config } from '../../shared/platform/config';
import { SCOPES } from '../../shared/platform/contract/scopes';

/**
 * A mixed write and read load against a platform this test process started itself, recording every
 * answer, and the checks that say whether a store fault broke a promise of the API: answers within
 * the deadline in the one error shape, 503 only as SERVICE_UNAVAILABLE ("not applied") or
 * OUTCOME_UNKNOWN, acknowledged writes kept, 503'd writes not applied, and the invariants (balance =
 * ledger sum, no pool over-issued, one order per externalOrderId). Used by test/e2e/store-faults.test.ts.
 */

/** The longest a client may wait: the request deadline, the last-resort grace (shared/http/area.ts), slack. */
export const ANSWER_LIMIT_MS = config.http.requestDeadlineMs + 500 + 2000;
/** A request without an answer after this long is a hang. */
const HANG_MS = ANSWER_LIMIT_MS + 8000;

export interface Answer {
  status: number;
  ms: number;
  body?: any;
  contentType?: string | null;
  retryAfter?: string | null;
  replayed?: boolean;
  /** Set when no HTTP answer came (connection refused or reset, or the hang limit). */
  transport?: string;
}

export type Api = (method: string, path: string, body?: unknown, idempotencyKey?: string) => Promise<Answer>;

export function apiOf(baseUrl: () => string, token: string): Api {
  return async (method, path, body, idempotencyKey) => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
    const started = performance.now();
    try {
      const res = await fetch(baseUrl() + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(HANG_MS),
      });
      const text = await res.text();
      let parsed: unknown;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = { notJson: text.slice(0, 200) };
      }
      return {
        status: res.status,
        ms: performance.now() - started,
        body: parsed,
        contentType: res.headers.get('content-type'),
        retryAfter: res.headers.get('retry-after'),
        replayed: res.headers.get('idempotent-replayed') === 'true',
      };
    } catch (err) {
      return { status: 0, ms: performance.now() - started, transport: (err as Error).cause ? String((err as Error).cause) : String(err) };
    }
  };
}

export const is2xx = (a: Answer) => a.status >= 200 && a.status < 300;
export const codeOf = (a: Answer): string | undefined => a.body?.error?.code;
export const isUnknown = (a: Answer) => a.status === 503 && codeOf(a) === 'OUTCOME_UNKNOWN';
export const isUnavailable = (a: Answer) => a.status === 503 && codeOf(a) === 'SERVICE_UNAVAILABLE';

/** A fresh workspace and an API key with every scope. */
export async function workspaceKey(baseUrl: string, label: string): Promise<string> {
  const post = async (path: string, body: unknown, token?: string) => {
    const res = await fetch(baseUrl + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    const parsed = (await res.json()) as any;
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${JSON.stringify(parsed)}`);
    return parsed.data;
  };
  const reg = await post('/api/v2/auth/register', {
    workspaceName: label,
    email: `${label}-${randomUUID().slice(0, 8)}@example.test`,
    password: 'long enough password',
  });
  return (await post('/api/v2/api-keys', { name: 'all', scopes: [...SCOPES] }, reg.session.token)).key as string;
}

/** Retries a read until it answers 2xx (the store may still be coming back). */
export async function read(api: Api, path: string, timeoutMs = 30_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const a = await api('GET', path);
    if (is2xx(a)) return a.body;
    if (Date.now() > deadline) throw new Error(`GET ${path} kept failing: ${a.status} ${JSON.stringify(a.body ?? a.transport)}`);
    await sleep(200);
  }
}

async function allPages(api: Api, path: string): Promise<{ first: any; items: any[] }> {
  const sep = path.includes('?') ? '&' : '?';
  let first: any;
  const items: any[] = [];
  let cursor: string | undefined;
  do {
    const page = await read(api, `${path}${sep}limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    first ??= page;
    items.push(...(Array.isArray(page.data) ? page.data : page.data.entries));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return { first, items };
}

// ---------------------------------------------------------------------------------------------
// The scenario: members with points, a small coupon pool with a points cost
// ---------------------------------------------------------------------------------------------

export interface Scenario {
  api: Api;
  label: string;
  members: string[];
  poolId: string;
  stock: number;
  pointsCost: number;
}

export async function arrange(api: Api, label: string, opts: { members?: number; stock?: number } = {}): Promise<Scenario> {
  const members = await Promise.all(
    Array.from({ length: opts.members ?? 4 }, async (_, i) => {
      const m = await api('POST', '/api/v2/members', { externalId: `${label}-m${i}` });
      if (m.status !== 201) throw new Error(`member: ${m.status} ${JSON.stringify(m.body)}`);
      const seed = await api('POST', `/api/v2/members/${m.body.data.id}/points`, { type: 'earn', amount: 300, reason: `${label} seed` });
      if (seed.status !== 201) throw new Error(`seed: ${seed.status} ${JSON.stringify(seed.body)}`);
      return m.body.data.id as string;
    }),
  );
  const stock = opts.stock ?? 8;
  const pointsCost = 5;
  const pool = await api('POST', '/api/v2/coupons/pools', {
    name: `${label} pool`,
    discount: { type: 'percent', value: 10 },
    codeConfig: { mode: 'generated', length: 10 },
    stock,
    pointsCost,
  });
  if (pool.status !== 201) throw new Error(`pool: ${pool.status} ${JSON.stringify(pool.body)}`);
  return { api, label, members, poolId: pool.body.data.id, stock, pointsCost };
}

// ---------------------------------------------------------------------------------------------
// Operations
// ---------------------------------------------------------------------------------------------

interface OpBase {
  seq: number;
  /** Idempotency-Key sent with the request (and with every retry of it). */
  key?: string;
  /** The first answer, then the answers of retries with the same key. */
  answers: Answer[];
}
export type Op =
  | (OpBase & { kind: 'points'; memberId: string; type: 'earn' | 'deduct'; amount: number; reason: string })
  | (OpBase & { kind: 'order'; memberId: string; externalOrderId: string; total: number })
  | (OpBase & { kind: 'issue'; memberId: string })
  | (OpBase & { kind: 'endpoint'; description: string })
  | (OpBase & { kind: 'read'; path: string });

function request(s: Scenario, op: Op): [string, string, unknown?] {
  switch (op.kind) {
    case 'points':
      return ['POST', `/api/v2/members/${op.memberId}/points`, { type: op.type, amount: op.amount, reason: op.reason }];
    case 'order':
      return [
        'POST',
        '/api/v2/orders',
        { externalOrderId: op.externalOrderId, memberId: op.memberId, currency: 'EUR', total: op.total, occurredAt: '2026-11-01T10:00:00Z' },
      ];
    case 'issue':
      return ['POST', '/api/v2/coupons/issue', { poolId: s.poolId, memberId: op.memberId }];
    case 'endpoint':
      // A single-item write (no transaction): subscribed to an event this load never causes.
      return ['POST', '/api/v2/webhooks', { url: 'http://127.0.0.1:9/never', description: op.description, eventTypes: ['coupon.redeemed'] }];
    case 'read':
      return ['GET', op.path];
  }
}

export const perform = (s: Scenario, op: Op): Promise<Answer> => {
  const [method, path, body] = request(s, op);
  return s.api(method, path, body, op.key);
};

const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)]!;
const maybeKey = (label: string, seq: number) => (Math.random() < 0.5 ? `${label}-k${seq}` : undefined);

/** Shares of the steady load; a burst (`writesOnly`) sends writes only, single-item ones more often. */
const MIX = { points: 34, order: 24, issue: 10, endpoint: 5, read: 27 };
const BURST_MIX = { points: 35, order: 20, issue: 15, endpoint: 30, read: 0 };

function nextOp(s: Scenario, seq: number, ops: Op[], writesOnly = false): Op {
  const mix = writesOnly ? BURST_MIX : MIX;
  let r = Math.random() * Object.values(mix).reduce((a, b) => a + b, 0);
  const kind = (Object.keys(mix) as (keyof typeof MIX)[]).find((k) => (r -= mix[k]) < 0) ?? 'read';
  const memberId = pick(s.members);
  const base = { seq, answers: [] as Answer[] };
  switch (kind) {
    case 'points': {
      const type = Math.random() < 0.6 ? 'earn' : 'deduct';
      return { ...base, kind, memberId, type, amount: 1 + Math.floor(Math.random() * 40), reason: `${s.label} op ${seq}`, key: maybeKey(s.label, seq) };
    }
    case 'order': {
      // Some orders repeat a recent externalOrderId (a client retrying, or two systems sending one order).
      const earlier = ops.filter((o): o is Extract<Op, { kind: 'order' }> => o.kind === 'order').slice(-6);
      if (earlier.length && Math.random() < 0.25) {
        const again = pick(earlier);
        return { ...base, kind, memberId: again.memberId, externalOrderId: again.externalOrderId, total: again.total, key: maybeKey(s.label, seq) };
      }
      return { ...base, kind, memberId, externalOrderId: `${s.label}-o${seq}`, total: 5 + Math.floor(Math.random() * 60), key: maybeKey(s.label, seq) };
    }
    case 'issue':
      return { ...base, kind, memberId, key: maybeKey(s.label, seq) };
    case 'endpoint':
      return { ...base, kind, description: `${s.label} endpoint ${seq}` };
    case 'read':
      return {
        ...base,
        kind,
        path: pick([
          `/api/v2/members/${memberId}/points?limit=5`,
          `/api/v2/orders?memberId=${memberId}&limit=5`,
          '/api/v2/coupons/pools?limit=5',
          `/api/v2/members/${memberId}`,
        ]),
      };
  }
}

export interface Load {
  ops: Op[];
  /**
   * `count` more writes, one every `spacingMs`, on top of the steady load: sent just before a fault,
   * some of them are surely in the store's hands when it strikes.
   */
  burst(count: number, spacingMs: number): void;
  /** Stops issuing new requests and waits for the ones in flight. */
  stop(): Promise<Op[]>;
}

/** `workers` concurrent clients, each sending one request after the other until stopped. */
export function startLoad(s: Scenario, workers = 6): Load {
  const ops: Op[] = [];
  let stopped = false;
  let seq = 0;
  const worker = async () => {
    while (!stopped) {
      const op = nextOp(s, ++seq, ops);
      ops.push(op);
      const answer = await perform(s, op);
      op.answers.push(answer);
      // A client backs off a little on 503 instead of spinning on a store that is down.
      if (answer.status === 503 || answer.status === 0) await sleep(150);
    }
  };
  const running: Promise<unknown>[] = Array.from({ length: workers }, worker);
  return {
    ops,
    burst: (count, spacingMs) => {
      for (let i = 0; i < count; i++) {
        running.push(
          sleep(i * spacingMs).then(async () => {
            const op = nextOp(s, ++seq, ops, true);
            ops.push(op);
            op.answers.push(await perform(s, op));
          }),
        );
      }
    },
    stop: async () => {
      stopped = true;
      await Promise.all(running);
      return ops;
    },
  };
}

/**
 * What an OUTCOME_UNKNOWN asks the client to do: the same request with the same Idempotency-Key,
 * until it is answered (a replay of the committed write, or the write applied now, exactly once).
 */
export async function resolveUnknowns(s: Scenario, ops: Op[], timeoutMs = 30_000): Promise<number> {
  let resolved = 0;
  for (const op of ops) {
    if (!op.key || !op.answers.some(isUnknown)) continue;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const a = await perform(s, op);
      op.answers.push(a);
      if (a.status !== 503 && a.status !== 0) break;
      if (Date.now() > deadline) throw new Error(`op ${op.seq} (${op.kind}) never settled: ${JSON.stringify(a.body ?? a.transport)}`);
      await sleep(200);
    }
    resolved++;
  }
  return resolved;
}

// ---------------------------------------------------------------------------------------------
// Checks
// ---------------------------------------------------------------------------------------------

/** Every answer: on time, JSON, the error shape, and a 5xx only as a 503 with Retry-After. */
export function answerProblems(ops: Op[]): string[] {
  const problems: string[] = [];
  for (const op of ops) {
    for (const a of op.answers) {
      const what = `op ${op.seq} ${op.kind}${op.kind === 'read' ? ` ${op.path}` : ''}`;
      if (a.status === 0) {
        problems.push(`${what}: no answer after ${Math.round(a.ms)} ms (${a.transport})`);
        continue;
      }
      if (a.ms > ANSWER_LIMIT_MS) problems.push(`${what}: answered ${a.status} after ${Math.round(a.ms)} ms (limit ${ANSWER_LIMIT_MS})`);
      if (!/^application\/json/.test(a.contentType ?? '')) problems.push(`${what}: ${a.status} with content-type ${a.contentType}`);
      if (a.status >= 400) {
        const e = a.body?.error;
        if (typeof e?.code !== 'string' || typeof e?.message !== 'string' || typeof e?.requestId !== 'string') {
          problems.push(`${what}: ${a.status} without the error shape: ${JSON.stringify(a.body)}`);
        }
      }
      if (a.status >= 500 && !(isUnavailable(a) || isUnknown(a))) problems.push(`${what}: ${a.status} ${JSON.stringify(a.body)}`);
      if (a.status === 503 && a.retryAfter === null) problems.push(`${what}: 503 without Retry-After`);
    }
  }
  return problems;
}

export interface Tally {
  /** First answers by operation kind: `"<status> <code>": count`. */
  byKind: Record<string, Record<string, number>>;
  ops: number;
  ok: number;
  unavailable: number;
  unknown: number;
  other: Record<number, number>;
  maxMs: number;
}

export function tally(ops: Op[]): Tally {
  const t: Tally = { byKind: {}, ops: ops.length, ok: 0, unavailable: 0, unknown: 0, other: {}, maxMs: 0 };
  for (const op of ops) {
    const a = op.answers[0];
    if (!a) continue;
    t.maxMs = Math.max(t.maxMs, Math.round(a.ms));
    const kind = (t.byKind[op.kind] ??= {});
    const label = `${a.status}${codeOf(a) ? ` ${codeOf(a)}` : ''}`;
    kind[label] = (kind[label] ?? 0) + 1;
    if (is2xx(a)) t.ok++;
    else if (isUnavailable(a)) t.unavailable++;
    else if (isUnknown(a)) t.unknown++;
    else t.other[a.status] = (t.other[a.status] ?? 0) + 1;
  }
  return t;
}

const count = <T>(xs: T[], keyOf: (x: T) => string | undefined) => {
  const m = new Map<string, number>();
  for (const x of xs) {
    const k = keyOf(x);
    if (k !== undefined) m.set(k, (m.get(k) ?? 0) + 1);
  }
  return m;
};

/**
 * What a write's answers allow to be stored: `'once'` (acknowledged), `'never'` (a definite refusal
 * or SERVICE_UNAVAILABLE), or `'maybe'` (OUTCOME_UNKNOWN never settled by a retry). A retry with
 * the key that answers 4xx settles an unknown as "not applied": had it been, the retry would replay.
 */
function allowed(op: Op): 'once' | 'never' | 'maybe' {
  if (op.answers.some(is2xx)) return 'once';
  if (op.answers.some(isUnknown) && !(op.key && op.answers.at(-1)!.status >= 400 && op.answers.at(-1)!.status < 500)) return 'maybe';
  return 'never';
}

/** The answers of an operation, for a problem report. */
const history = (op: Op) =>
  op.answers.map((a) => `${a.status}${codeOf(a) ? ` ${codeOf(a)}` : ''}${a.replayed ? ' replayed' : ''} after ${Math.round(a.ms)} ms`).join(', ') +
  (op.key ? ' (with key)' : '');

/** Reads back everything the load wrote and checks it against the answers and the invariants. */
export async function stateProblems(s: Scenario, ops: Op[]): Promise<string[]> {
  const problems: string[] = [];
  const ledgers = new Map<string, { balance: number; entries: any[] }>();
  for (const m of s.members) {
    const { first, items } = await allPages(s.api, `/api/v2/members/${m}/points`);
    ledgers.set(m, { balance: first.data.balance, entries: items });
  }
  const entries = [...ledgers.values()].flatMap((l) => l.entries);
  const byReason = count(entries, (e) => e.reason);

  // Balance = ledger sum, and each entry continues the one before it.
  for (const [m, l] of ledgers) {
    const sum = l.entries.reduce((acc, e) => acc + e.amount, 0);
    if (sum !== l.balance) problems.push(`member ${m}: balance ${l.balance} but the ledger sums to ${sum}`);
    for (let i = 0; i + 1 < l.entries.length; i++) {
      const [newer, older] = [l.entries[i], l.entries[i + 1]];
      if (newer.balanceAfter - newer.amount !== older.balanceAfter) problems.push(`member ${m}: entry ${newer.id} does not follow ${older.id}`);
    }
    if (l.entries.length && l.entries[0].balanceAfter !== l.balance)
      problems.push(`member ${m}: newest balanceAfter ${l.entries[0].balanceAfter} != balance ${l.balance}`);
  }

  // Points changes: each reason is unique to one request.
  for (const op of ops) {
    if (op.kind !== 'points') continue;
    const n = byReason.get(op.reason) ?? 0;
    const want = allowed(op);
    const answered = op.answers.filter(is2xx).map((a) => a.body.data.entry.id);
    if (n > 1) problems.push(`points op ${op.seq}: applied ${n} times (${JSON.stringify(op.answers.map((a) => a.status))})`);
    if (want === 'once' && n !== 1) problems.push(`points op ${op.seq}: acknowledged but ${n === 0 ? 'lost' : 'duplicated'} (${history(op)})`);
    if (want === 'once' && new Set(answered).size !== 1) problems.push(`points op ${op.seq}: answers name different entries ${answered}`);
    if (want === 'once' && n === 1 && !entries.some((e) => e.reason === op.reason && e.id === answered[0]))
      problems.push(`points op ${op.seq}: stored entry is not the answered one`);
    if (want === 'never' && n !== 0) problems.push(`points op ${op.seq}: answered ${history(op)} yet applied`);
  }

  // Orders: one per externalOrderId, stored with its one earn entry, only if some request could have stored it.
  const orders = (await Promise.all(s.members.map((m) => allPages(s.api, `/api/v2/orders?memberId=${m}`)))).flatMap((p) => p.items);
  const ordersById = count(orders, (o) => o.externalOrderId);
  const orderOps = new Map<string, Extract<Op, { kind: 'order' }>[]>();
  for (const op of ops) if (op.kind === 'order') orderOps.set(op.externalOrderId, [...(orderOps.get(op.externalOrderId) ?? []), op]);
  for (const [ext, n] of ordersById) if (n > 1) problems.push(`order ${ext}: stored ${n} times`);
  for (const [ext, group] of orderOps) {
    const stored = orders.find((o) => o.externalOrderId === ext);
    const earnEntries = byReason.get(`Order ${ext}`) ?? 0;
    if (stored && earnEntries !== (stored.points.earned > 0 ? 1 : 0)) problems.push(`order ${ext}: stored with ${earnEntries} earn entries`);
    if (!stored && earnEntries !== 0) problems.push(`order ${ext}: earn entry without the order`);
    const kinds = group.map(allowed);
    if (kinds.includes('once')) {
      if (!stored) problems.push(`order ${ext}: acknowledged but lost`);
      const ids = new Set(group.flatMap((op) => op.answers.filter(is2xx).map((a) => a.body.data.id)));
      if (stored && (ids.size !== 1 || !ids.has(stored.id))) problems.push(`order ${ext}: answers name ${[...ids]}, stored ${stored.id}`);
    } else if (stored && !kinds.includes('maybe')) {
      problems.push(`order ${ext}: answered ${group.flatMap((op) => op.answers.map((a) => `${a.status} ${codeOf(a) ?? ''}`))} yet stored`);
    }
  }

  // Coupons: the pool never over-issued; every coupon came with its deduction; only acknowledged or unknown issues stored.
  const pool = (await allPages(s.api, '/api/v2/coupons/pools')).items.find((p) => p.id === s.poolId);
  const coupons = (await allPages(s.api, `/api/v2/coupons?poolId=${s.poolId}`)).items;
  if (!pool) problems.push(`pool ${s.poolId} not found`);
  else {
    if (pool.issued > s.stock || pool.remaining < 0 || pool.issued + pool.remaining !== s.stock)
      problems.push(`pool: issued ${pool.issued}, remaining ${pool.remaining}, stock ${s.stock}`);
    if (coupons.length !== pool.issued) problems.push(`pool: issued ${pool.issued} but ${coupons.length} coupons exist`);
  }
  for (const c of coupons) {
    const n = byReason.get(`Coupon ${c.id} from pool ${s.poolId}`) ?? 0;
    if (n !== 1) problems.push(`coupon ${c.id}: ${n} points deductions`);
  }
  const issueOps = ops.filter((op) => op.kind === 'issue');
  const answeredCoupons = new Set(issueOps.flatMap((op) => op.answers.filter(is2xx).map((a) => a.body.data.id as string)));
  for (const id of answeredCoupons) if (!coupons.some((c) => c.id === id)) problems.push(`coupon ${id}: acknowledged but lost`);
  const unanswered = coupons.filter((c) => !answeredCoupons.has(c.id)).length;
  const maybe = issueOps.filter((op) => allowed(op) === 'maybe').length;
  if (unanswered > maybe) problems.push(`coupons: ${unanswered} stored that no acknowledged issue made, but only ${maybe} issues were left unknown`);

  // Webhook endpoints (single-item writes): each description is unique to one request.
  const endpoints = (await allPages(s.api, '/api/v2/webhooks')).items;
  const byDescription = count(endpoints, (e) => e.description);
  for (const op of ops) {
    if (op.kind !== 'endpoint') continue;
    const n = byDescription.get(op.description) ?? 0;
    const want = allowed(op);
    if (n > 1) problems.push(`endpoint op ${op.seq}: created ${n} times`);
    if (want === 'once' && n !== 1) problems.push(`endpoint op ${op.seq}: acknowledged but lost (${history(op)})`);
    if (want === 'never' && n !== 0) problems.push(`endpoint op ${op.seq}: answered ${history(op)} yet created`);
  }
  return problems;
}
