import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiOf, read, workspaceKey } from '../support/fault-load';
import { isAlive, startPlatform, type RunningPlatform } from '../support/platform';
import { startReceiver, type Received } from '../support/receiver';

/**
 * The runtime stopped (SIGTERM, then SIGKILL) while webhook deliveries are in flight, on a platform
 * of this file's own (own DATA_DIR, port and DynamoDB Local: a killed runtime orphans its JVM, which
 * the next start stops). The promise: every event of a member that exists is delivered after the
 * restart, and a duplicate keeps its webhook-id and body. It measures no answer against the request
 * deadline, so it runs beside the other files with the lifecycle ones.
 */

const env = {
  // Webhook numbers shrunk so a redelivery after a crash takes seconds, with room for a busy machine
  // (a visibility shorter than a slow delivery only adds duplicates).
  WEBHOOK_VISIBILITY_SECONDS: '5',
  WEBHOOK_BACKOFF_BASE_SECONDS: '1',
  WEBHOOK_BACKOFF_CAP_SECONDS: '2',
  WEBHOOK_DELIVERY_TIMEOUT_SECONDS: '3',
};

let platform: RunningPlatform;

beforeAll(async () => {
  platform = await startPlatform({ env });
}, 90_000);

afterAll(async () => {
  await platform?.stop();
}, 30_000);

describe('the runtime restarted during webhook delivery', () => {
  /** member.created deliveries by member id. */
  const byMember = (received: Received[]) => {
    const m = new Map<string, Received[]>();
    for (const r of received) {
      const id = JSON.parse(r.body).data.resource_id as string;
      m.set(id, [...(m.get(id) ?? []), r]);
    }
    return m;
  };

  it('stopped with SIGTERM, then with SIGKILL, mid-delivery: every event arrives, duplicates keep their webhook-id', async () => {
    // A slow receiver, so deliveries are in flight when the runtime goes.
    const receiver = await startReceiver(() => ({ status: 200, delayMs: 200 }));
    try {
      const hooked = apiOf(() => platform.baseUrl, await workspaceKey(platform.baseUrl, 'hooks'));
      const sub = await hooked('POST', '/api/v2/webhooks', { url: receiver.url, eventTypes: ['member.created'] });
      expect(sub.status).toBe(201);

      const acknowledged = new Set<string>();
      for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
        // A burst of members (each one event), still being written when the runtime stops.
        let writing = true;
        let n = 0;
        const writers = Array.from({ length: 3 }, async () => {
          while (writing) {
            const a = await hooked('POST', '/api/v2/members', { externalId: `hook-${signal}-${++n}` });
            if (a.status === 201) acknowledged.add(a.body.data.id);
            else if (a.status === 0) return; // the runtime went away
          }
        });
        const seen = receiver.received.length;
        await receiver.waitFor(seen + 3, 20_000);
        const { pid, dynamodbPid } = await platform.runtime();
        await platform.stop(signal);
        writing = false;
        await Promise.all(writers);
        if (signal === 'SIGKILL') expect(isAlive(dynamodbPid)).toBe(true); // orphaned: the next start stops it
        expect(isAlive(pid)).toBe(false);
        platform = await startPlatform({ dataDir: platform.dataDir, env });
      }

      // Every member that exists (acknowledged or written just as the runtime went) is delivered.
      const members = new Set<string>();
      let cursor: string | undefined;
      do {
        const page = await read(hooked, `/api/v2/members?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        for (const m of page.data) members.add(m.id);
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      for (const id of acknowledged) expect(members.has(id), `acknowledged member ${id} lost`).toBe(true);

      const deadline = Date.now() + 40_000;
      let missing = [...members];
      while (missing.length && Date.now() < deadline) {
        await sleep(200);
        const delivered = byMember(receiver.received);
        missing = missing.filter((id) => !delivered.has(id));
      }
      expect(missing).toEqual([]);
      const delivered = byMember(receiver.received);
      expect([...delivered.keys()].every((id) => members.has(id))).toBe(true);
      let duplicates = 0;
      for (const [id, copies] of delivered) {
        expect(new Set(copies.map((c) => c.headers['webhook-id'])).size, `member ${id}`).toBe(1);
        expect(new Set(copies.map((c) => c.body)).size, `member ${id}`).toBe(1);
        duplicates += copies.length - 1;
      }
      console.log('webhooks:', JSON.stringify({ events: members.size, acknowledged: acknowledged.size, deliveries: receiver.received.length, duplicates }));
    } finally {
      await receiver.close();
    }
  }, 150_000);
});
