import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { isMetricLine } from '../../infra/local/log-format';
import { SCOPES } from '../../shared/platform/contract/scopes';
import { METRICS_NAMESPACE } from '../../shared/platform/observability/metric-catalog';
import { isAlive, runToExit, startPlatform, type RunningPlatform } from '../support/platform';

async function waitDead(pid: number, ms = 10_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (isAlive(pid)) {
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
  return true;
}

const JSON_TYPE = { 'content-type': 'application/json' };
const json = async (url: string, init?: RequestInit) => {
  const res = await fetch(url, init);
  return { status: res.status, body: (await res.json()) as any };
};

describe('local runtime (what npm start runs)', () => {
  it('first start seeds a demo workspace; stop leaves no child; restart keeps the data', async () => {
    // Exactly what a newcomer runs: `npm start`, later stopped with SIGTERM sent to npm itself.
    const first = await startPlatform({ viaNpmStart: true });
    expect(first.startupMs).toBeLessThan(30_000);
    const out = first.output();
    expect(out).toMatch(/Listening on http:\/\/127\.0\.0\.1:\d+/);
    const demo = JSON.parse(await readFile(join(first.dataDir, 'demo.json'), 'utf8'));
    expect(out).toContain(demo.email);
    expect(out).toContain(demo.password);
    expect(out).toContain(demo.apiKey);

    // The printed key has every scope and works at once.
    const keys = await json(`${first.baseUrl}/api/v2/api-keys`, { headers: { authorization: `Bearer ${demo.apiKey}` } });
    expect(keys.status).toBe(200);
    expect(keys.body.data[0].scopes).toEqual([...SCOPES]);
    const login = await json(`${first.baseUrl}/api/v2/auth/login`, {
      method: 'POST',
      headers: JSON_TYPE,
      body: JSON.stringify({ email: demo.email, password: demo.password }),
    });
    expect(login.status).toBe(200);

    const { dynamodbPid, pid } = await first.runtime();
    expect(isAlive(dynamodbPid)).toBe(true);
    expect(await first.stop('SIGTERM')).toBe(0);
    expect(await waitDead(pid)).toBe(true);
    expect(await waitDead(dynamodbPid)).toBe(true);

    // JSON lines, as on AWS, with the request lines in (the first start shows the default when piped).
    const second = await startPlatform({ dataDir: first.dataDir, env: { LOG_FORMAT: 'json', POWERTOOLS_LOG_LEVEL: 'INFO' } });
    try {
      expect(second.output()).not.toContain('Created the demo workspace');
      const again = await json(`${second.baseUrl}/api/v2/auth/login`, {
        method: 'POST',
        headers: JSON_TYPE,
        body: JSON.stringify({ email: demo.email, password: demo.password }),
      });
      expect(again.status).toBe(200);
      expect(again.body.data.workspace.id).toBe(demo.workspaceId);
      const sameKey = await json(`${second.baseUrl}/api/v2/api-keys`, { headers: { authorization: `Bearer ${demo.apiKey}` } });
      expect(sameKey.status).toBe(200);
      expect(sameKey.body.data).toHaveLength(1);
    } finally {
      const java = (await second.runtime()).dynamodbPid;
      expect(await second.stop('SIGINT')).toBe(0);
      expect(await waitDead(java)).toBe(true);
    }
    for (const run of [first.output(), second.output()]) {
      const all = run
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      // Business metrics are EMF documents on the same stream (as on AWS), not log lines: their
      // `service` is a metric dimension. Every other line is a log line without noise fields.
      const metrics = all.filter(isMetricLine);
      expect(metrics.map((m) => m.ApiRequests)).toContain(1);
      for (const m of metrics) expect((m._aws as { CloudWatchMetrics: { Namespace: string }[] }).CloudWatchMetrics[0]!.Namespace).toBe(METRICS_NAMESPACE);
      const lines = all.filter((l) => !isMetricLine(l));
      for (const line of lines) {
        expect(Object.keys(line).slice(0, 3)).toEqual(['level', 'message', 'timestamp']);
        for (const noise of ['service', 'sampling_rate', 'cold_start', 'function_name', 'function_arn', 'xray_trace_id'])
          expect(line).not.toHaveProperty(noise);
      }
      expect(lines.map((l) => l.message)).toContain('Stopped');
    }
    const requests = second
      .output()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .filter((l) => l.message === 'request');
    expect(requests).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ method: 'POST', path: '/api/v2/auth/login', status: 200 }),
        expect.objectContaining({ method: 'GET', path: '/api/v2/api-keys', status: 200 }),
      ]),
    );
  });

  it('without Java it exits within seconds, saying what to install', async () => {
    // A PATH with node and nothing else: no java anywhere, and no JAVA_HOME to fall back on.
    const bin = await mkdtemp(join(tmpdir(), 'loyalty-nojava-'));
    await symlink(process.execPath, join(bin, 'node'));
    const run = await runToExit({ env: { PATH: bin, JAVA_HOME: undefined }, timeoutMs: 30_000 });
    expect(run.code, run.output).not.toBe(0);
    expect(run.code, run.output).not.toBeNull();
    expect(run.ms).toBeLessThan(10_000);
    expect(run.output).toMatch(/Java 17/);
    expect(run.output).toContain('openjdk-17-jre-headless');
    expect(run.output).not.toMatch(/\n\s+at /); // a message, not a stack trace
  });

  it('a busy port is reported in one line before anything starts', async () => {
    const busy: Server = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', () => r()));
    const port = (busy.address() as { port: number }).port;
    const dataDir = await mkdtemp(join(tmpdir(), 'loyalty-test-'));
    try {
      const run = await runToExit({ dataDir, env: { PORT: String(port) }, timeoutMs: 30_000 });
      expect(run.code, run.output).not.toBe(0);
      expect(run.code, run.output).not.toBeNull();
      const lines = run.output.split('\n').filter((l) => l.includes(String(port)));
      expect(lines, run.output).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`Port ${port} is in use.*PORT=`));
      expect(run.output).not.toMatch(/\n\s+at /);
      // Nothing was started: no DynamoDB Local or s3rver files, no lock left behind.
      expect(existsSync(join(dataDir, 'dynamodb'))).toBe(false);
      expect(existsSync(join(dataDir, 's3'))).toBe(false);
      expect(existsSync(join(dataDir, 'runtime.lock'))).toBe(false);
    } finally {
      busy.close();
    }
  });

  it('a second start on the same DATA_DIR is refused, naming the running instance', async () => {
    const first = await startPlatform();
    try {
      const { pid, port } = await first.runtime();
      const second = await runToExit({ dataDir: first.dataDir, timeoutMs: 40_000 });
      expect(second.code, second.output).not.toBe(0);
      expect(second.code, second.output).not.toBeNull();
      expect(second.output).toContain(`pid ${pid}`);
      expect(second.output).toContain(`port ${port}`);
      expect(second.output).not.toMatch(/\n\s+at /);
      // The running instance is untouched: same runtime.json, still serving.
      expect((await first.runtime()).pid).toBe(pid);
      const demo = JSON.parse(await readFile(join(first.dataDir, 'demo.json'), 'utf8'));
      const keys = await fetch(`${first.baseUrl}/api/v2/api-keys`, { headers: { authorization: `Bearer ${demo.apiKey}` } });
      expect(keys.status).toBe(200);
    } finally {
      expect(await first.stop()).toBe(0);
    }
  });

  it('a runtime killed with SIGKILL: the next start stops its orphaned JVM and takes over its stale lock; a clean stop leaves no runtime.json', async () => {
    const first = await startPlatform();
    let second: RunningPlatform | undefined;
    try {
      const { pid, dynamodbPid } = await first.runtime();
      await first.stop('SIGKILL');
      expect(await waitDead(pid)).toBe(true);
      await sleep(500);
      expect(isAlive(dynamodbPid)).toBe(true); // the JVM outlives a runtime that could not stop it
      const stale = JSON.parse(await readFile(join(first.dataDir, 'runtime.lock'), 'utf8'));
      expect(stale.pid).toBe(pid);

      second = await startPlatform({ dataDir: first.dataDir });
      expect(second.output()).toContain(`Stopping DynamoDB Local (pid ${dynamodbPid})`);
      expect(await waitDead(dynamodbPid)).toBe(true);
      const now = await second.runtime();
      expect(now.dynamodbPid).not.toBe(dynamodbPid);
      expect(JSON.parse(await readFile(join(first.dataDir, 'runtime.lock'), 'utf8')).pid).toBe(now.pid);
      const demo = JSON.parse(await readFile(join(first.dataDir, 'demo.json'), 'utf8'));
      const login = await fetch(`${second.baseUrl}/api/v2/auth/login`, {
        method: 'POST',
        headers: JSON_TYPE,
        body: JSON.stringify({ email: demo.email, password: demo.password }),
      });
      expect(login.status).toBe(200);

      expect(await second.stop('SIGTERM')).toBe(0);
      expect(await waitDead(now.dynamodbPid)).toBe(true);
      expect(existsSync(join(first.dataDir, 'runtime.json'))).toBe(false);
      expect(existsSync(join(first.dataDir, 'runtime.lock'))).toBe(false);
    } finally {
      await second?.stop('SIGTERM');
    }
  });

  it('a JVM whose pid nothing recorded (runtime killed while starting) is found and stopped at the next start', async () => {
    const first = await startPlatform();
    let second: RunningPlatform | undefined;
    try {
      const { pid, dynamodbPid } = await first.runtime();
      await first.stop('SIGKILL');
      expect(await waitDead(pid)).toBe(true);
      // As if it had died before writing anything down: no runtime.json, no lock.
      await rm(join(first.dataDir, 'runtime.json'));
      await rm(join(first.dataDir, 'runtime.lock'));
      expect(isAlive(dynamodbPid)).toBe(true);

      second = await startPlatform({ dataDir: first.dataDir });
      expect(second.output()).toContain(`Stopping DynamoDB Local (pid ${dynamodbPid})`);
      expect(await waitDead(dynamodbPid)).toBe(true);
    } finally {
      if (second) expect(await second.stop()).toBe(0);
    }
  });

  it('a stale lock of a dead process is taken over', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'loyalty-test-'));
    const dead = spawnSync(process.execPath, ['-e', '']).pid; // exited and reaped: no such process now
    expect(isAlive(dead)).toBe(false);
    await writeFile(join(dataDir, 'runtime.lock'), JSON.stringify({ pid: dead, port: 3000 }));
    const p = await startPlatform({ dataDir });
    const { dynamodbPid } = await p.runtime();
    expect(await p.stop()).toBe(0);
    expect(await waitDead(dynamodbPid)).toBe(true);
  });

  it('DynamoDB Local killed under a running runtime is restarted and service comes back', async () => {
    const p = await startPlatform();
    let jvm: number | undefined;
    try {
      const demo = JSON.parse(await readFile(join(p.dataDir, 'demo.json'), 'utf8'));
      const stores = () =>
        fetch(`${p.baseUrl}/api/v2/stores`, { headers: { authorization: `Bearer ${demo.apiKey}` } }).then(
          (r) => r.status,
          () => 0,
        );
      expect(await stores()).toBe(200);
      const before = (await p.runtime()).dynamodbPid;
      process.kill(before, 'SIGKILL');
      expect(await waitDead(before)).toBe(true);

      const deadline = Date.now() + 45_000;
      let status = 0;
      while ((status = await stores()) !== 200 && Date.now() < deadline) await sleep(250);
      expect(status, p.output().slice(-2000)).toBe(200);
      expect(p.output()).toContain(`DynamoDB Local (pid ${before}) exited unexpectedly`);
      expect(p.output()).toMatch(/DynamoDB Local is back \(pid \d+/);
      jvm = (await p.runtime()).dynamodbPid;
      expect(jvm).not.toBe(before);
      expect(isAlive(jvm)).toBe(true);
    } finally {
      expect(await p.stop()).toBe(0);
      if (jvm) expect(await waitDead(jvm)).toBe(true);
    }
  });
});
