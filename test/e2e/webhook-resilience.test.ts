import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, inject, it } from 'vitest';
import { SCOPES } from '../../shared/platform/contract/scopes';
import { isAlive, startPlatform, type RunningPlatform } from '../support/platform';
import { startReceiver } from '../support/receiver';

/** A tiny client for platforms this file starts itself (the shared `call` targets the global one). */
function client(p: RunningPlatform) {
  return async (method: string, path: string, token?: string, body?: unknown) => {
    const res = await fetch(p.baseUrl + path, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
}

async function workspace(p: RunningPlatform) {
  const api = client(p);
  const reg = await api('POST', '/api/v2/auth/register', undefined, {
    workspaceName: 'R',
    email: `r-${Date.now()}-${Math.random()}@example.test`,
    password: 'long enough password',
  });
  const key = (await api('POST', '/api/v2/api-keys', reg.body.data.session.token, { name: 'all', scopes: [...SCOPES] })).body.data.key as string;
  return { api, key };
}

describe('webhook delivery survives a crash', () => {
  it('kill the runtime between send and acknowledgment: the event is delivered again, same webhook-id', async () => {
    const env = { WEBHOOK_VISIBILITY_SECONDS: '2', WEBHOOK_BACKOFF_BASE_SECONDS: '1', WEBHOOK_BACKOFF_CAP_SECONDS: '2' };
    // Its own DynamoDB Local: the crash takes the JVM down with the runtime.
    const first = await startPlatform({ env });
    // The first request is held far beyond the crash; later ones are answered at once.
    const receiver = await startReceiver((n) => (n === 1 ? { status: 200, delayMs: 30_000 } : { status: 200 }));
    try {
      const { api, key } = await workspace(first);
      expect((await api('POST', '/api/v2/webhooks', key, { url: receiver.url, eventTypes: ['member.created'] })).status).toBe(201);
      expect((await api('POST', '/api/v2/members', key, { externalId: 'crash-1' })).status).toBe(201);
      await receiver.waitFor(1);

      // Crash: no shutdown handler runs, the message was sent but never acknowledged.
      const { pid, dynamodbPid } = await first.runtime();
      process.kill(pid, 'SIGKILL');
      process.kill(dynamodbPid, 'SIGKILL');
      while (isAlive(pid) || isAlive(dynamodbPid)) await sleep(50);

      const second = await startPlatform({ dataDir: first.dataDir, env });
      try {
        const [a, b] = await receiver.waitFor(2, 30_000);
        expect(b!.headers['webhook-id']).toBe(a!.headers['webhook-id']);
        expect(b!.body).toBe(a!.body);
      } finally {
        await second.stop();
      }
    } finally {
      await receiver.close();
      await first.stop('SIGKILL').catch(() => undefined);
    }
  });
});

describe('webhook egress guard with the local loopback allowance off (as in AWS)', () => {
  it('refuses http, loopback, private, metadata and mapped targets at create time', async () => {
    const p = await startPlatform({ stores: inject('stores'), env: { WEBHOOK_ALLOW_LOOPBACK: 'false' } });
    try {
      const { api, key } = await workspace(p);
      for (const url of [
        'http://127.0.0.1:8080/hook',
        'https://127.0.0.1/hook',
        'https://10.0.0.1/hook',
        'https://169.254.169.254/latest/meta-data',
        'https://[::1]/hook',
        'https://[::ffff:127.0.0.1]/hook',
        'https://[fd00:ec2::254]/hook',
        'https://localhost/hook',
      ]) {
        const res = await api('POST', '/api/v2/webhooks', key, { url, eventTypes: ['member.created'] });
        expect(res.status, url).toBe(422);
        expect(res.body.error.details[0]).toMatchObject({ field: 'url', message: expect.any(String) });
      }
      expect((await api('POST', '/api/v2/webhooks', key, { url: 'https://hooks.example.com/in', eventTypes: ['member.created'] })).status).toBe(201);
    } finally {
      await p.stop();
    }
  });
});

describe('endpoint disabling', () => {
  it('an endpoint failing every attempt for the whole span is disabled and gets nothing more', async () => {
    const p = await startPlatform({
      stores: inject('stores'),
      env: { WEBHOOK_DISABLE_AFTER_FAILING_SECONDS: '2', WEBHOOK_MAX_ATTEMPTS: '20', WEBHOOK_BACKOFF_BASE_SECONDS: '1', WEBHOOK_BACKOFF_CAP_SECONDS: '1' },
    });
    const receiver = await startReceiver(() => ({ status: 500 }));
    try {
      const { api, key } = await workspace(p);
      const endpoint = (await api('POST', '/api/v2/webhooks', key, { url: receiver.url, eventTypes: ['member.created'] })).body.data;
      await api('POST', '/api/v2/members', key, { externalId: 'fail-1' });
      let status = 'active';
      const deadline = Date.now() + 20_000;
      while (status === 'active' && Date.now() < deadline) {
        await sleep(200);
        status = (await api('GET', '/api/v2/webhooks', key)).body.data[0].status;
      }
      expect(status).toBe('disabled');
      const list = (await api('GET', '/api/v2/webhooks', key)).body.data[0];
      expect(list.disabledReason).toMatch(/failed since/);
      expect(p.output()).toContain('webhook.endpoint_disabled');
      const count = receiver.received.length;
      // The retry still queued comes back, finds the endpoint disabled and ends the delivery unsent:
      // once that is logged nothing of it is left to arrive.
      const newestAttempt = async () => (await api('GET', `/api/v2/webhooks/${endpoint.id}/deliveries?limit=200`, key)).body.data[0];
      let newest = await newestAttempt();
      const until = Date.now() + 20_000;
      while (newest?.state !== 'cancelled') {
        if (Date.now() > until) throw new Error(`no cancelled attempt logged: ${JSON.stringify(newest)}`);
        await sleep(100);
        newest = await newestAttempt();
      }
      expect(newest).toMatchObject({ state: 'cancelled', statusCode: null, error: 'endpoint disabled; not sent' });
      expect(receiver.received.length).toBe(count);
    } finally {
      await receiver.close();
      await p.stop();
    }
  });
});
