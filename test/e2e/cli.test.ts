import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { execFile, spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { generate } from 'otplib';
import { call, PASSWORD, registerAccount } from '../support/api';
import { cli, startCli } from '../support/cli';
import { newMember, tenant, type Tenant } from '../support/fixtures';
import { eventually, startReceiver } from '../support/receiver';

/**
 * The `loyalty` command-line tool, run as a child process (bin/loyalty.mjs) against the test
 * platform: one invocation per command, human and --json output, exit codes. The tests share one
 * workspace and touch nothing another one reads, so they run concurrently (each waits on child processes),
 * with generous time-outs for a busy machine.
 */
let t: Tenant;
let configDir: string;
const closers: (() => Promise<unknown>)[] = [];
afterAll(async () => Promise.all(closers.map((c) => c())));

beforeAll(async () => {
  t = await tenant('cli');
  configDir = await mkdtemp(join(tmpdir(), 'loyalty-cli-'));
});

/** With the tenant's all-scopes key (or as `env` says), sessions stored in this file's own folder. */
const run = (args: string[], env: Record<string, string | undefined> = {}, stdin?: string) =>
  cli(args, { env: { LOYALTY_API_KEY: t.key, LOYALTY_CONFIG_DIR: configDir, ...env }, ...(stdin === undefined ? {} : { stdin }) });
const asSession = (args: string[]) => run(args, { LOYALTY_API_KEY: undefined, LOYALTY_SESSION_TOKEN: t.token });
const json = (r: { stdout: string }) => JSON.parse(r.stdout);

describe.concurrent('loyalty keys', { timeout: 180_000 }, () => {
  it('creates, lists and revokes a key; the revoked key is refused with the API error and its request id', async () => {
    const created = await run(['keys', 'create', '--name', 'reporting', '--preset', 'read-only', '--json']);
    expect(created.code, created.stderr).toBe(0);
    const key = json(created);
    expect(key.key).toMatch(/^fl_live_/);
    expect(key.scopes).toContain('members:read');

    const listed = await run(['keys', 'list']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^ID\s+NAME\s+PREFIX/m);
    expect(listed.stdout).toMatch(new RegExp(`^${key.id}\\s+reporting`, 'm'));
    expect(listed.stdout).not.toContain(key.key);

    const revoked = await run(['keys', 'revoke', key.id, '--yes']);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toContain(`Revoked ${key.id}`);
    expect(json(await run(['keys', 'list', '--json'])).map((k: { id: string }) => k.id)).not.toContain(key.id);

    const refused = await run(['members', 'find', '--email', 'x@example.test'], { LOYALTY_API_KEY: key.key });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^Error: UNAUTHENTICATED: .+ \(HTTP 401, request id req_\S+\)$/m);
  });

  it('takes an admin session when no API key is given (keys accept both)', async () => {
    const listed = await asSession(['keys', 'list', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(json(listed).map((k: { name: string }) => k.name)).toContain('all');
  });
});

describe.concurrent('loyalty members and points', { timeout: 180_000 }, () => {
  it('gets a member and finds one by e-mail or external id', async () => {
    const m = await newMember(t.key, { externalId: 'cli-ext-1', firstName: 'Ada' });
    const got = await run(['members', 'get', m.id]);
    expect(got.code, got.stderr).toBe(0);
    expect(got.stdout).toMatch(new RegExp(`^${m.id}  Ada$`, 'm'));
    expect(got.stdout).toMatch(/^ {2}points +0 \(pending 0, lifetime 0\)$/m);

    const byEmail = await run(['members', 'find', '--email', m.email, '--json']);
    expect(json(byEmail).map((x: { id: string }) => x.id)).toEqual([m.id]);
    const byExternal = await run(['members', 'find', '--external-id', 'cli-ext-1']);
    expect(byExternal.stdout).toMatch(new RegExp(`^${m.id}\\s+${m.email}\\s+cli-ext-1\\s+active`, 'm'));
    expect((await run(['members', 'find', '--external-id', 'nobody'])).stdout).toContain('No member matches.');
  });

  it('earns and deducts with a new Idempotency-Key per invocation, or replays the one given', async () => {
    const m = await newMember(t.key);
    const first = await run(['points', 'earn', m.id, '100', '--reason', 'welcome gift']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain(`Earned 100 points for ${m.id}: balance 100`);
    const second = json(await run(['points', 'earn', m.id, '100', '--json']));
    expect(second.points.balance).toBe(200);
    expect(second.entry.reason).toBe('Manual earn');
    expect(second.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);

    const once = json(await run(['points', 'deduct', m.id, '30', '--idempotency-key', 'cli-deduct-1', '--json']));
    const again = json(await run(['points', 'deduct', m.id, '30', '--idempotency-key', 'cli-deduct-1', '--json']));
    expect(again.entry.id).toBe(once.entry.id);
    expect((await call('GET', `/api/v2/members/${m.id}`, { token: t.key })).body.data.points.balance).toBe(170);

    const tooMuch = await run(['points', 'deduct', m.id, '1000']);
    expect(tooMuch.code).toBe(1);
    expect(tooMuch.stderr).toMatch(/^Error: INSUFFICIENT_POINTS: .+ \(HTTP 409, request id req_\S+\)$/m);
  });
});

describe.concurrent('loyalty objects apply', { timeout: 180_000 }, () => {
  it('defines types from YAML, says there is nothing to change the second time, then applies only the difference', async () => {
    const file = join(configDir, 'types.yaml');
    const yaml = (options: string) => `types:
  - type: repair_job
    label: Repair job
    status: published
    apiVisible: true
    fields:
      - { key: title, type: text, required: true }
      - { key: state, type: enum, options: [${options}] }
      - { key: owner, type: member_ref }
`;
    await writeFile(file, yaml('open, done'));
    const first = await asSession(['objects', 'apply', file]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^\+ repair_job \(new\)$/m);
    expect(first.stdout).toMatch(/^ {4}\+ field state \(enum, optional, options open\|done\)$/m);
    expect(first.stdout).toContain('Applied: 1 type(s) changed, 0 unchanged.');

    const second = await asSession(['objects', 'apply', file]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout.trim()).toBe('Nothing to change: 1 object type already as defined.');

    await writeFile(file, yaml('open, done, cancelled'));
    const dry = json(await asSession(['objects', 'apply', file, '--dry-run', '--json']));
    expect(dry).toEqual({
      applied: false,
      unchanged: [],
      changes: [
        { type: 'repair_job', action: 'update', changes: ['~ field state: enum, optional, options open|done -> enum, optional, options open|done|cancelled'] },
      ],
    });
    const third = await asSession(['objects', 'apply', file]);
    expect(third.stdout).toMatch(/^~ repair_job$/m);
    const type = (await call('GET', '/api/v2/objects/repair_job', { token: t.key })).body.data;
    expect(type.fields.find((f: { key: string }) => f.key === 'state').options).toEqual(['open', 'done', 'cancelled']);
  });

  it('refuses an invalid file before sending anything, naming each problem (exit 2)', async () => {
    const file = join(configDir, 'bad.json');
    await writeFile(file, JSON.stringify({ type: 'Bad Type', label: 'x', status: 'live', apiVisible: true, fields: [{ key: 'a', type: 'blob' }] }));
    const r = await asSession(['objects', 'apply', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('types.0.type: must start with a-z');
    expect(r.stderr).toContain('types.0.status: must be one of: draft, published');
    expect(r.stderr).toMatch(/types\.0\.fields\.0\.type: must be one of: text, number/);
  });
});

describe.concurrent('loyalty login', { timeout: 180_000 }, () => {
  it('stores the session owner-only and later commands use it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'loyalty-cli-login-'));
    const login = await cli(['login', '--email', t.email, '--password-stdin'], { env: { LOYALTY_CONFIG_DIR: dir }, stdin: `${PASSWORD}\n` });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toContain(`Signed in as ${t.email} (owner)`);
    const file = join(dir, 'sessions.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);

    const listed = await cli(['keys', 'list', '--json'], { env: { LOYALTY_CONFIG_DIR: dir } });
    expect(listed.code, listed.stderr).toBe(0);
    expect(Array.isArray(json(listed))).toBe(true);

    expect((await cli(['logout'], { env: { LOYALTY_CONFIG_DIR: dir } })).stdout).toContain('Forgot the session');
    const after = await cli(['exports', 'start'], { env: { LOYALTY_CONFIG_DIR: dir } });
    expect(after.code).toBe(2);
    expect(after.stderr).toContain('loyalty login --email');
  });

  it('an account with two-factor sign-in: the code from --code, else (no terminal to ask) a usage error', async () => {
    const acc = await registerAccount('cli-mfa');
    const { secret } = (await call('POST', '/api/flash/mfa/enrolment', { token: acc.token })).body.data;
    const epoch = Math.floor(Date.now() / 1000);
    expect((await call('POST', '/api/flash/mfa/confirm', { token: acc.token, body: { code: await generate({ secret, epoch: epoch - 30 }) } })).status).toBe(
      200,
    );
    const dir = await mkdtemp(join(tmpdir(), 'loyalty-cli-mfa-'));
    const env = { LOYALTY_CONFIG_DIR: dir };
    const asked = await cli(['login', '--email', acc.email, '--password-stdin'], { env, stdin: `${PASSWORD}\n` });
    expect(asked.code).toBe(2);
    expect(asked.stderr).toContain('--code');
    const code = await generate({ secret, epoch: epoch + 30 });
    const login = await cli(['login', '--email', acc.email, '--password-stdin', '--code', code], { env, stdin: `${PASSWORD}\n` });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toContain(`Signed in as ${acc.email} (owner)`);
  });

  it('a wrong password is the API error, exit 1', async () => {
    const r = await cli(['login', '--email', t.email, '--password-stdin', '--json'], { env: { LOYALTY_CONFIG_DIR: configDir }, stdin: 'not the password' });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stderr).error).toMatchObject({ status: 401, code: 'UNAUTHENTICATED', requestId: expect.stringMatching(/^req_/) });
  });
});

describe.concurrent('loyalty events and webhooks', { timeout: 180_000 }, () => {
  it('lists the event catalog', async () => {
    const r = await run(['events', 'list']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^EVENT\s+STAGE\s+LABEL$/m);
    expect(r.stdout).toMatch(/^member\.created\s/m);
    expect(json(await run(['events', 'list', '--json'])).map((e: { event: string }) => e.event)).toContain('order.created');
  });

  it('webhooks deliveries --follow prints a test delivery as it appears, and stops on Ctrl-C', async () => {
    const receiver = await startReceiver();
    closers.push(receiver.close);
    const endpoint = (await call('POST', '/api/v2/webhooks', { token: t.key, body: { url: receiver.url, eventTypes: ['order.refunded'] } })).body.data; // no other test refunds
    const follow = startCli(['webhooks', 'deliveries', endpoint.id, '--follow', '--interval', '200'], { env: { LOYALTY_API_KEY: t.key } });
    await follow.waitForOutput(/Following delivery attempts/);
    expect(follow.output()).not.toContain('webhook.ping');

    const test = await run(['webhooks', 'test', endpoint.id, '--json']);
    expect(test.code, test.stderr).toBe(0);
    const { eventId } = json(test);
    await follow.waitForOutput(new RegExp(`webhook\\.ping  ${eventId}  attempt 1  200  \\d+ms  delivered`));
    const stopped = await follow.stop('SIGINT');
    expect(stopped.code).toBe(0);

    const once = await run(['webhooks', 'deliveries', endpoint.id, '--json']);
    expect(json(once).map((a: { eventId: string }) => a.eventId)).toEqual([eventId]);
  });

  it('webhooks listen forwards signed deliveries to a local receiver and deletes its endpoint on SIGTERM', async () => {
    const receiver = await startReceiver();
    closers.push(receiver.close);
    const listen = startCli(['webhooks', 'listen', '--forward-to', receiver.url, '--events', 'member.created', '--json'], { env: { LOYALTY_API_KEY: t.key } });
    const ready = JSON.parse((await listen.waitForOutput(/^\{"ready":true.*\}$/m))[0]);
    expect(ready.secret).toMatch(/^whsec_/);
    expect((await call('GET', '/api/v2/webhooks', { token: t.key })).body.data.map((e: { id: string }) => e.id)).toContain(ready.endpointId);

    const m = await newMember(t.key);
    const delivered = await eventually(
      async () => receiver.received.find((r) => JSON.parse(r.body).data.resource_id === m.id),
      20_000,
      'the forwarded delivery',
    );
    const verified = new Webhook(ready.secret).verify(delivered.body, {
      'webhook-id': String(delivered.headers['webhook-id']),
      'webhook-timestamp': String(delivered.headers['webhook-timestamp']),
      'webhook-signature': String(delivered.headers['webhook-signature']),
    }) as { type: string };
    expect(verified.type).toBe('member.created');
    const line = await listen.waitForOutput(new RegExp(`^\\{"webhookId":"${delivered.headers['webhook-id']}".*\\}$`, 'm'));
    expect(JSON.parse(line[0])).toEqual({ webhookId: delivered.headers['webhook-id'], eventType: 'member.created', status: 200 });

    const stopped = await listen.stop('SIGTERM');
    expect(stopped.code, stopped.stderr).toBe(0);
    expect((await call('GET', '/api/v2/webhooks', { token: t.key })).body.data.map((e: { id: string }) => e.id)).not.toContain(ready.endpointId);
  });
  it('webhooks listen answers the platform 502 when the forward target is down, and says so', async () => {
    // A port nothing listens on any more.
    const gone = await startReceiver();
    await gone.close();
    const listen = startCli(['webhooks', 'listen', '--forward-to', gone.url, '--events', 'member.created', '--json'], { env: { LOYALTY_API_KEY: t.key } });
    const ready = JSON.parse((await listen.waitForOutput(/^\{"ready":true.*\}$/m))[0]);
    await newMember(t.key);
    const line = JSON.parse((await listen.waitForOutput(/^\{"webhookId":.*"error":.*\}$/m))[0]);
    expect(line).toMatchObject({ eventType: 'member.created', error: 'ECONNREFUSED' });
    const attempts = await eventually(async () => {
      const log = (await call('GET', `/api/v2/webhooks/${ready.endpointId}/deliveries`, { token: t.key })).body.data as { statusCode: number | null }[];
      return log.length ? log : undefined;
    });
    expect(attempts[0]!.statusCode).toBe(502);
    expect((await listen.stop('SIGINT')).code).toBe(0);
  });
});

describe.concurrent('loyalty exports', { timeout: 180_000 }, () => {
  it('exports start --wait --output downloads the completed file', async () => {
    const m = await newMember(t.key, { externalId: 'cli-export' });
    const file = join(configDir, 'members.csv');
    const r = await asSession(['exports', 'start', '--entity', 'members', '--format', 'csv', '--wait', '--output', file]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Export exp_\S+ completed: \d+ rows$/m);
    const csv = await readFile(file, 'utf8');
    expect(csv.split('\n')[0]).toMatch(/^id,externalId,email,/);
    expect(csv).toContain(`${m.id},cli-export,${m.email}`);
    expect(r.stdout).toContain(`Wrote ${file} (${Buffer.byteLength(csv)} bytes)`);
    // Not a terminal: no spinner, nothing but the lines.
    expect(r.stdout).not.toContain('\u001b[');

    const id = /^Export (exp_\S+) completed/m.exec(r.stdout)![1]!;
    const got = await asSession(['exports', 'get', id]);
    expect(got.code, got.stderr).toBe(0);
    expect(got.stdout).toMatch(new RegExp(`^${id}  members  csv  completed  \\d+ rows$`, 'm'));
    const again = join(configDir, 'members-again.csv');
    const downloaded = await asSession(['exports', 'download', id, '--output', again]);
    expect(downloaded.code, downloaded.stderr).toBe(0);
    expect(downloaded.stdout.trim()).toBe(`Wrote ${again} (${Buffer.byteLength(csv)} bytes)`);
    expect(await readFile(again, 'utf8')).toBe(csv);
    const missing = await asSession(['exports', 'get', 'exp_missing']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^Error: NOT_FOUND: .*\(HTTP 404, request id \S+\)$/m);
  });

  it('shows a spinner while waiting when stdout is a terminal', async () => {
    // `script` (util-linux) gives the command a pseudo-terminal, 80 columns wide.
    const entry = resolve(import.meta.dirname, '../../bin/loyalty.mjs');
    const command = `stty cols 80 rows 24; '${process.execPath}' '${entry}' exports start --entity orders --wait`;
    // The spinner stays off wherever `CI` is set (a CI log is no terminal): this run is one, so without it.
    const { CI: _ci, ...inherited } = process.env;
    const { stdout } = await promisify(execFile)('script', ['-qec', command, '/dev/null'], {
      env: { ...inherited, LOYALTY_BASE_URL: inject('baseUrl'), LOYALTY_SESSION_TOKEN: t.token, LOYALTY_API_KEY: '' },
    });
    expect(stdout).toContain('\u001b[?25l'); // the spinner hides the cursor while it spins
    expect(stdout).toMatch(/Export exp_\S+: (pending|running)/);
    expect(stdout).toMatch(/Export exp_\S+ completed: \d+ rows/);
  });

  it('needs an admin session: an API key alone is refused with how to sign in (exit 2)', async () => {
    const r = await run(['exports', 'start', '--wait']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('needs an owner or admin session: run `loyalty login --email <you>` or set LOYALTY_SESSION_TOKEN');
  });
});

describe.concurrent('loyalty errors and exits', { timeout: 180_000 }, () => {
  it('a missing API key says how to set it (exit 2)', async () => {
    const r = await cli(['members', 'get', 'mbr_x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('No API key: set LOYALTY_API_KEY=fl_live_... or pass --api-key');
    // keys take either credential, and the message names both
    const keys = await cli(['keys', 'list']);
    expect(keys.code).toBe(2);
    expect(keys.stderr).toContain('or sign in: run `loyalty login --email <you>` or set LOYALTY_SESSION_TOKEN');
  });

  it('a reader that closes the pipe early (| head -1) ends the command quietly, exit 0', async () => {
    const entry = resolve(import.meta.dirname, '../../bin/loyalty.mjs');
    const child = spawn(process.execPath, [entry, '--help'], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy(); // closed before the tool writes anything: its writes meet EPIPE
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((r) => child.once('close', (c) => r(c)));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });

  it('usage errors exit 2: unknown command, missing argument, bad number', async () => {
    for (const args of [
      ['members', 'explode'],
      ['points', 'earn'],
      ['points', 'earn', 'mbr_x', 'ten'],
    ]) {
      const r = await run(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).not.toBe('');
    }
  });

  it('API errors exit 1 with code, message and request id; --json puts them on stderr as JSON, with the details', async () => {
    const missing = await run(['members', 'get', 'mbr_doesnotexist']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^Error: NOT_FOUND: .+ \(HTTP 404, request id req_\S+\)$/m);
    const invalid = await run(['keys', 'create', '--name', 'x', '--scopes', 'members:explode', '--json']);
    expect(invalid.code).toBe(1);
    expect(invalid.stdout).toBe('');
    const { error } = JSON.parse(invalid.stderr);
    expect(error).toMatchObject({ status: 422, code: 'VALIDATION_FAILED', requestId: expect.stringMatching(/^req_/) });
    expect(error.details[0].field).toMatch(/^scopes/);
  });

  it('an unreachable base URL is exit 1 naming it; --base-url wins over the environment', async () => {
    const r = await run(['members', 'get', 'mbr_x', '--base-url', 'http://127.0.0.1:9']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Could not reach http://127.0.0.1:9');
  });

  it('runs as `npx loyalty` (the package bin), global options after the command', async () => {
    const { stdout } = await promisify(execFile)(
      'npx',
      ['--no-install', 'loyalty', 'members', 'find', '--external-id', 'nobody', '--json', '--base-url', inject('baseUrl'), '--api-key', t.key],
      {
        cwd: resolve(import.meta.dirname, '../..'),
        env: { ...process.env, LOYALTY_BASE_URL: 'http://127.0.0.1:9', LOYALTY_API_KEY: '' },
      },
    );
    expect(JSON.parse(stdout)).toEqual([]);
  });
});
