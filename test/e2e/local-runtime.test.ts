import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { SCOPES } from '../../shared/domain/api-keys/scopes';
import { isAlive, startPlatform } from '../support/platform';

async function waitDead(pid: number, ms = 10_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (isAlive(pid)) {
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
  return true;
}

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
    const login = await json(`${first.baseUrl}/api/v2/auth/login`, { method: 'POST', body: JSON.stringify({ email: demo.email, password: demo.password }) });
    expect(login.status).toBe(200);

    const { dynamodbPid, pid } = await first.runtime();
    expect(isAlive(dynamodbPid)).toBe(true);
    expect(await first.stop('SIGTERM')).toBe(0);
    expect(await waitDead(pid)).toBe(true);
    expect(await waitDead(dynamodbPid)).toBe(true);

    const second = await startPlatform({ dataDir: first.dataDir });
    try {
      expect(second.output()).not.toContain('Created the demo workspace');
      const again = await json(`${second.baseUrl}/api/v2/auth/login`, { method: 'POST', body: JSON.stringify({ email: demo.email, password: demo.password }) });
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
  });
});
