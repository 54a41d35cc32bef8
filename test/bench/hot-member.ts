import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import { SCOPES } from '../../shared/platform/contract/scopes';
import type { inProcess } from '../support/in-process';
import type { RunningPlatform } from '../support/platform';

const round = (n: number) => Math.round(n * 100) / 100;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/**
 * One hot member: `changes` points changes (earns and deductions, each with its own
 * Idempotency-Key) sent all at once to one member, next to the same changes sent one after another
 * to another member of the same workspace. Each round uses two fresh members; the figures are the
 * medians of `rounds` rounds, and every member must end at the seed plus the changes answered 201.
 * Target: no error at all, and the parallel batch done within 2x the time of the sequential one.
 * With `inProcess`, one more batch splits the changes between the platform and this process.
 */
export async function hotMember(platform: Pick<RunningPlatform, 'baseUrl'>, opts: { changes: number; rounds: number; inProcess?: typeof inProcess }) {
  const json = async (path: string, body: unknown, token?: string, headers: Record<string, string> = {}) => {
    const res = await fetch(platform.baseUrl + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const reg = await json('/api/v2/auth/register', { workspaceName: 'Bench hot member', email: `hot-${Date.now()}@example.test`, password: 'bench password 1' });
  const key = (await json('/api/v2/api-keys', { name: 'bench', scopes: [...SCOPES] }, reg.body.data.session.token)).body.data.key as string;

  // Earns and deductions alternate; the seed covers every deduction, so none may be refused.
  const ops = Array.from({ length: opts.changes }, (_, i) => (i % 2 === 0 ? { type: 'earn', amount: 10 } : { type: 'deduct', amount: 7 }));
  const seed = opts.changes * 7;
  const runId = randomUUID().slice(0, 8);
  const freshMember = async (label: string) => {
    const m = await json('/api/v2/members', { externalId: `hot-${runId}-${label}` }, key);
    await json(`/api/v2/members/${m.body.data.id}/points`, { type: 'earn', amount: seed, reason: 'seed' }, key);
    return m.body.data.id as string;
  };
  const change = (memberId: string, label: string, i: number) =>
    json(`/api/v2/members/${memberId}/points`, { ...ops[i]!, reason: `change ${i}` }, key, { 'idempotency-key': `hot-${runId}-${label}-${i}` });

  const balanceOf = async (memberId: string) =>
    ((await (await fetch(`${platform.baseUrl}/api/v2/members/${memberId}`, { headers: { authorization: `Bearer ${key}` } })).json()) as any).data.points
      .balance as number;
  /** What a member must hold: the seed plus every change that was answered 201 (and nothing else). */
  const expected = (answers: { status: number }[]) =>
    seed + ops.reduce((sum, op, i) => (answers[i]!.status === 201 ? sum + (op.type === 'earn' ? op.amount : -op.amount) : sum), 0);
  let wrongBalances = 0;

  const sequentialMs: number[] = [];
  const parallelMs: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  for (let round = 0; round < opts.rounds; round++) {
    const one = await freshMember(`seq-${round}`);
    let started = performance.now();
    const oneByOne: { status: number }[] = [];
    for (let i = 0; i < opts.changes; i++) {
      const res = await change(one, `seq-${round}`, i);
      oneByOne.push(res);
      if (res.status !== 201) errors++;
    }
    sequentialMs.push(performance.now() - started);
    if ((await balanceOf(one)) !== expected(oneByOne)) wrongBalances++;

    const hot = await freshMember(`par-${round}`);
    started = performance.now();
    const answers = await Promise.all(ops.map((_, i) => change(hot, `par-${round}`, i)));
    parallelMs.push(performance.now() - started);
    for (const a of answers) {
      const label = a.status === 201 ? '201' : `${a.status} ${a.body?.error?.code ?? ''}`.trim();
      statuses[label] = (statuses[label] ?? 0) + 1;
      if (a.status !== 201) errors++;
    }
    if ((await balanceOf(hot)) !== expected(answers)) wrongBalances++;
  }

  // Two processes on one member: half the changes through the platform, half made by this process
  // (the members handler called in-process): the changes of one process no longer race each other,
  // so this is the optimistic path between processes (conditional write, retry on the member the
  // failed condition returns).
  let twoProcesses: { ms: number; errors: number; statuses: Record<string, number> } | undefined;
  if (opts.inProcess) {
    const call = opts.inProcess;
    const shared = await freshMember('two');
    const started = performance.now();
    const answers = await Promise.all(
      ops.map((_, i) =>
        i % 2 === 0
          ? change(shared, 'two', i)
          : call('POST', `/api/v2/members/${shared}/points`, {
              token: key,
              body: { ...ops[i]!, reason: `change ${i}` },
              headers: { 'idempotency-key': `hot-${runId}-two-${i}` },
            }),
      ),
    );
    const ms = performance.now() - started;
    const tally: Record<string, number> = {};
    for (const a of answers) {
      const label = a.status === 201 ? '201' : `${a.status} ${a.body?.error?.code ?? ''}`.trim();
      tally[label] = (tally[label] ?? 0) + 1;
    }
    if ((await balanceOf(shared)) !== expected(answers)) wrongBalances++;
    twoProcesses = { ms: round(ms), errors: answers.filter((a) => a.status !== 201).length, statuses: tally };
  }
  const seq = median(sequentialMs);
  const par = median(parallelMs);
  return {
    name: `hot member: ${opts.changes} points changes on one member, all at once vs one after another (median of ${opts.rounds} rounds)`,
    sequentialMs: round(seq),
    parallelMs: round(par),
    ratio: round(par / seq),
    target: 'parallel <= 2x sequential, 0 errors',
    errors,
    parallelStatuses: statuses,
    wrongBalances,
    ...(twoProcesses ? { twoProcesses: { ...twoProcesses, ratio: round(twoProcesses.ms / seq) } } : {}),
    rounds: { sequentialMs: sequentialMs.map(round), parallelMs: parallelMs.map(round) },
  };
}
