import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { call } from '../support/api';
import { cli, startCli } from '../support/cli';
import { tenant, type Tenant } from '../support/fixtures';
import { eventually, startReceiver } from '../support/receiver';
import { Webhook } from 'standardwebhooks';

/**
 * The `loyalty` commands a newcomer's walkthrough needs, against the test platform as child
 * processes: members create/list/get and points earn (no curl needed), webhooks delete, keys
 * revoke asking first, errors with their reference link, an unreachable platform naming the flag,
 * and a `listen` killed with SIGKILL whose endpoint the next `listen` removes.
 */
let t: Tenant;
const closers: (() => Promise<unknown>)[] = [];
afterAll(async () => Promise.all(closers.map((c) => c())));
beforeAll(async () => {
  t = await tenant('cli-dx');
});

const run = (args: string[], env: Record<string, string | undefined> = {}) => cli(args, { env: { LOYALTY_API_KEY: t.key, ...env } });
const ROOT = new URL('../../', import.meta.url);

describe.concurrent('the walkthrough from the start banner', { timeout: 240_000 }, () => {
  it("runs on the runtime's random port with nothing but the banner's export line, and each step is timed", async () => {
    const line = /export LOYALTY_BASE_URL=(http:\/\/127\.0\.0\.1:\d+) LOYALTY_API_KEY=(fl_live_[A-Za-z0-9_-]+)/.exec(inject('startOutput'));
    expect(line, 'the banner prints a paste-ready export line').not.toBeNull();
    const [, baseUrl, apiKey] = line!;
    expect(baseUrl).toBe(inject('baseUrl'));
    expect(baseUrl).not.toMatch(/:3000$/);
    // Exactly what a shell has after pasting the line: nothing else points the tool at the platform.
    const env = { LOYALTY_BASE_URL: baseUrl, LOYALTY_API_KEY: apiKey };
    const timings: Record<string, number> = {};
    const step = async (name: string, args: string[]) => {
      const since = Date.now();
      const r = await cli(args, { env });
      timings[name] = Date.now() - since;
      expect(r.code, `${name}: ${r.stderr}`).toBe(0);
      return r;
    };
    const email = `ada-${Date.now()}@example.com`;
    const created = JSON.parse((await step('members create', ['members', 'create', '--email', email, '--first-name', 'Ada', '--json'])).stdout);
    expect(created).toMatchObject({ email, firstName: 'Ada' });
    const order = await step('orders create', [
      'orders',
      'create',
      '--member',
      created.id,
      '--total',
      '59.90',
      '--currency',
      'EUR',
      '--item',
      'MUG-BLK:2:29.95',
    ]);
    expect(order.stdout).toMatch(/^Recorded order ord_\S+$/m);
    expect(order.stdout).toMatch(/^\s+points\s+59 earned$/m);
    expect(order.stdout).toMatch(/^\s+balance\s+59 \(pending 0\)$/m);
    const earned = await step('points earn', ['points', 'earn', created.id, '100', '--reason', 'welcome']);
    expect(earned.stdout).toContain('balance 159');
    const got = await step('members get', ['members', 'get', created.id]);
    expect(got.stdout).toMatch(/points\s+159/);
    const listed = await step('members list', ['members', 'list', '--limit', '200']);
    expect(listed.stdout).toContain(created.id);
    console.log(`walkthrough step timings (ms): ${JSON.stringify(timings)}`);
  });
});

describe.concurrent('loyalty members, webhooks delete, keys revoke', { timeout: 180_000 }, () => {
  it('members create prints the member; list shows it under readable headers that fit 120 columns', async () => {
    const created = await run(['members', 'create', '--email', 'grace@example.com', '--external-id', 'CRM-G', '--first-name', 'Grace']);
    expect(created.code, created.stderr).toBe(0);
    const id = /Created (mbr_\S+)/.exec(created.stdout)![1]!;
    const listed = await run(['members', 'list']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^ID\s+EMAIL\s+EXTERNAL ID\s+STATUS\s+TIER\s+BALANCE$/m);
    expect(listed.stdout).toMatch(new RegExp(`^${id}\\s+grace@example.com\\s+CRM-G`, 'm'));
    for (const l of listed.stdout.split('\n')) expect(l.length).toBeLessThanOrEqual(120);
    const none = await run(['members', 'create', '--first-name', 'Nobody']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--email or --external-id');
  });

  it('webhooks list shows an endpoint; webhooks delete removes it', async () => {
    const receiver = await startReceiver();
    closers.push(() => receiver.close());
    const made = await call('POST', '/api/v2/webhooks', { token: t.key, body: { url: receiver.url, eventTypes: ['member.created'] } });
    expect(made.status).toBe(201);
    const listed = await run(['webhooks', 'list']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/^ID\s+URL\s+STATUS\s+EVENT TYPES$/m);
    expect(listed.stdout).toMatch(new RegExp(`^${made.body.data.id}\\s+\\S+\\s+active\\s+member\\.created$`, 'm'));
    const deleted = await run(['webhooks', 'delete', made.body.data.id]);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout).toContain(`Deleted endpoint ${made.body.data.id}`);
    const list = await call('GET', '/api/v2/webhooks', { token: t.key });
    expect(list.body.data.map((e: { id: string }) => e.id)).not.toContain(made.body.data.id);
    const after = await run(['webhooks', 'list', '--json']);
    expect(JSON.parse(after.stdout).map((e: { id: string }) => e.id)).not.toContain(made.body.data.id);
  });

  it('keys revoke asks first: without a terminal and without --yes it revokes nothing (exit 2)', async () => {
    const key = JSON.parse((await run(['keys', 'create', '--name', 'confirm-me', '--preset', 'read-only', '--json'])).stdout);
    const refused = await run(['keys', 'revoke', key.id]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--yes');
    expect((await call('GET', '/api/v2/members', { token: key.key })).status).toBe(200);
    const revoked = await run(['keys', 'revoke', key.id, '--yes']);
    expect(revoked.code).toBe(0);
    expect((await call('GET', '/api/v2/members', { token: key.key })).status).toBe(401);
  });
});

describe.concurrent('loyalty trigger', { timeout: 180_000 }, () => {
  it('sends a signed sample of the event to each active endpoint subscribed to it, and only to those', async () => {
    const w = await tenant('cli-trigger');
    const subscribed = await startReceiver();
    const other = await startReceiver();
    closers.push(
      () => subscribed.close(),
      () => other.close(),
    );
    const made = await call('POST', '/api/v2/webhooks', { token: w.key, body: { url: subscribed.url, eventTypes: ['order.created'] } });
    await call('POST', '/api/v2/webhooks', { token: w.key, body: { url: other.url, eventTypes: ['member.created'] } });
    const r = await cli(['trigger', 'order.created', '--json'], { env: { LOYALTY_API_KEY: w.key } });
    expect(r.code, r.stderr).toBe(0);
    const sent = JSON.parse(r.stdout);
    expect(sent).toMatchObject({ eventType: 'order.created', deliveries: [{ endpointId: made.body.data.id }] });
    const got = await eventually(async () => subscribed.received[0], 60_000, 'the sample delivery');
    new Webhook(made.body.data.secret).verify(got.body, got.headers as Record<string, string>);
    expect(JSON.parse(got.body)).toMatchObject({ id: sent.eventId, type: 'order.created' });
    expect(other.received).toEqual([]);
    const unknown = await cli(['trigger', 'order.exploded'], { env: { LOYALTY_API_KEY: w.key } });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('VALIDATION_FAILED');
  });
});

describe.concurrent('loyalty errors, version and a killed listen', { timeout: 180_000 }, () => {
  it("an API error prints the link to its code's section of the reference", async () => {
    const missing = await run(['members', 'get', 'mbr_doesnotexist']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`See ${inject('baseUrl')}/docs#api/description/not-found`);
    const asJson = JSON.parse((await run(['members', 'get', 'mbr_doesnotexist', '--json'])).stderr);
    expect(asJson.error.docUrl).toBe(`${inject('baseUrl')}/docs#api/description/not-found`);
  });

  it('an unreachable platform names --base-url and LOYALTY_BASE_URL', async () => {
    const r = await run(['members', 'get', 'mbr_x'], { LOYALTY_BASE_URL: 'http://127.0.0.1:9' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Could not reach http://127.0.0.1:9');
    expect(r.stderr).toContain('--base-url');
    expect(r.stderr).toContain('LOYALTY_BASE_URL');
  });

  it('--version prints the version of the package', async () => {
    const r = await cli(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')).version);
  });

  it('a listen killed with SIGKILL leaves an endpoint that the next listen removes', async () => {
    const receiver = await startReceiver();
    closers.push(() => receiver.close());
    const first = startCli(['webhooks', 'listen', '--forward-to', receiver.url, '--events', 'member.created', '--json'], { env: { LOYALTY_API_KEY: t.key } });
    const ready = JSON.parse((await first.waitForOutput(/^\{"ready":true.*\}$/m))[0]);
    await first.stop('SIGKILL');
    const ids = async () => (await call('GET', '/api/v2/webhooks', { token: t.key })).body.data.map((e: { id: string }) => e.id) as string[];
    expect(await ids()).toContain(ready.endpointId); // nothing could delete it

    const second = startCli(['webhooks', 'listen', '--forward-to', receiver.url, '--events', 'member.created'], { env: { LOYALTY_API_KEY: t.key } });
    await second.waitForOutput(/^Ready: endpoint (whe_\S+)/m);
    expect(second.output()).toContain(`Removed endpoint ${ready.endpointId}, left behind by a listen that was killed`);
    const now = await ids();
    expect(now).not.toContain(ready.endpointId);
    const secondId = /^Ready: endpoint (whe_\S+)/m.exec(second.output())![1]!;
    expect(now).toContain(secondId); // a running listener's endpoint is kept
    expect((await second.stop('SIGTERM')).code).toBe(0);
    expect(await ids()).not.toContain(secondId);
  });
});
