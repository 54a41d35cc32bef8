import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { solidPng } from '../../shared/wallet/png';
import { documentClientFor, startPlatform, type RunningPlatform } from '../support/platform';
import {
  clientOf,
  pendingPushes,
  portalSession,
  refreshOf,
  serverErrors,
  startFakeApns,
  startFakeGoogleWallet,
  unpackPass,
  verifyPassSignature,
  waitFor,
  walletMember,
  walletTenant,
  type Client,
  type FakeApns,
  type FakeGoogleWallet,
  type WalletTenant,
} from '../support/wallet';

/**
 * Apple wallet cards end to end, against a platform of its own whose APNS_URL points at a fake APNs
 * (cleartext HTTP/2 on 127.0.0.1): issuing through a member portal session, the signature checked
 * by openssl against the generated development WWDR, Apple's whole pass web service, and the push
 * that follows a points change.
 */

let platform: RunningPlatform;
let apns: FakeApns;
let google: FakeGoogleWallet;
let request: Client;
let shop: WalletTenant;
let wwdr: string;
let passTypeId: string;

const V1 = '/api/wallet/apple/v1';
const device = (n: number) => `${'d'.repeat(31)}${n}`;
const pushToken = (n: number) => `${'ab'.repeat(31)}${String(n).padStart(2, '0')}`;

beforeAll(async () => {
  [apns, google] = await Promise.all([startFakeApns(), startFakeGoogleWallet()]);
  platform = await startPlatform({
    stores: inject('stores'),
    env: { APNS_URL: apns.url, GOOGLE_WALLET_API_URL: google.url, WALLET_PLATFORMS: 'apple,google', POWERTOOLS_LOG_LEVEL: 'INFO' },
  });
  request = clientOf(platform.baseUrl);
  shop = await walletTenant(request, 'wallet-apple');
  wwdr = join(platform.dataDir, 'wallet', 'wwdr.pem');
  passTypeId = JSON.parse(readFileSync(join(platform.dataDir, 'wallet', 'wallet.json'), 'utf8')).passTypeIdentifier;
}, 120_000);

afterAll(async () => {
  await platform?.stop();
  await apns?.close();
  await google?.close();
  // No request anywhere in this suite answered a 5xx, and nothing failed unexpectedly in the runtime.
  expect(serverErrors).toEqual([]);
  expect(platform.output()).not.toMatch(/unhandled error/);
});

async function issue(token: string) {
  return request('POST', '/api/consumer/wallet/issue', { token, body: { platform: 'apple' } });
}

/**
 * Once the push worker has logged its refresh for the change a request made, and no push message is
 * left in the queue, the change has gone the whole way and nothing more of it can arrive: the signal
 * a test of "exactly one push" or "no push" waits for, instead of a fixed time.
 */
async function settled(requestId: string): Promise<{ pushed: number }> {
  const { queueDatabase } = await platform.runtime();
  return waitFor(() => {
    const refresh = refreshOf(platform.output(), requestId);
    return refresh && pendingPushes(queueDatabase) === 0 ? refresh : undefined;
  }, `the refresh of request ${requestId}`);
}

/** Earns points; returns the request id. */
async function earn(memberId: string, amount: number): Promise<string> {
  const res = await request('POST', `/api/v2/members/${memberId}/points`, { token: shop.key, body: { type: 'earn', amount, reason: 'test' } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.headers.get('x-request-id')!;
}

describe('member portal sessions', () => {
  it('are minted for a member with members:write, as fl_cs_ tokens that expire soon', async () => {
    const member = await walletMember(request, shop.key);
    const res = await request('POST', `/api/v2/members/${member.id}/portal-sessions`, { token: shop.key });
    expect(res.status).toBe(201);
    expect(res.body.data.token).toMatch(/^fl_cs_[A-Za-z0-9_-]{43}$/);
    const ttl = Date.parse(res.body.data.expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(25 * 60_000);
    expect(ttl).toBeLessThanOrEqual(30 * 60_000 + 1000);
  });

  it("need members:write, and a member of the key's own workspace", async () => {
    const member = await walletMember(request, shop.key);
    const readOnly = await request('POST', '/api/v2/api-keys', { token: shop.token, body: { name: 'ro', preset: 'read-only' } });
    expect((await request('POST', `/api/v2/members/${member.id}/portal-sessions`, { token: readOnly.body.data.key })).status).toBe(403);
    const other = await walletTenant(request, 'wallet-other');
    expect((await request('POST', `/api/v2/members/${member.id}/portal-sessions`, { token: other.key })).status).toBe(404);
  });

  it('are refused on every other kind of route, and other credentials on consumer routes', async () => {
    const member = await walletMember(request, shop.key);
    const session = await portalSession(request, shop.key, member.id);
    expect((await request('GET', `/api/v2/members/${member.id}`, { token: session })).status).toBe(403);
    expect((await request('GET', '/api/v2/auth/profile', { token: session })).status).toBe(403);
    expect((await request('POST', '/api/consumer/wallet/issue', { token: shop.key, body: { platform: 'apple' } })).status).toBe(403);
    expect((await request('POST', '/api/consumer/wallet/issue', { token: shop.token, body: { platform: 'apple' } })).status).toBe(403);
    expect((await request('POST', '/api/consumer/wallet/issue', { token: `fl_cs_${'x'.repeat(43)}`, body: { platform: 'apple' } })).status).toBe(401);
    expect((await request('POST', '/api/consumer/wallet/issue', { body: { platform: 'apple' } })).status).toBe(401);
  });

  it('stop working when they expire (401, like an unknown one)', async () => {
    const member = await walletMember(request, shop.key);
    const session = await portalSession(request, shop.key, member.id);
    expect((await issue(session)).status).toBe(200);
    const runtime = await platform.runtime();
    const key = { pk: `CSESSION#${createHash('sha256').update(session).digest('hex')}`, sk: 'CSESSION' };
    const stored = await documentClientFor(runtime).send(new GetCommand({ TableName: runtime.tableName, Key: key }));
    // Stored as its SHA-256 only: the token itself is nowhere in the item.
    expect(JSON.stringify(stored.Item)).not.toContain(session);
    expect(stored.Item).toMatchObject({ workspaceId: shop.workspaceId, memberId: member.id });
    await documentClientFor(runtime).send(
      new UpdateCommand({
        TableName: runtime.tableName,
        Key: key,
        UpdateExpression: 'SET expiresAt = :past',
        ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 1 },
      }),
    );
    expect((await issue(session)).status).toBe(401);
  });

  it('stop working once the member is unenrolled', async () => {
    const member = await walletMember(request, shop.key);
    const session = await portalSession(request, shop.key, member.id);
    expect((await issue(session)).status).toBe(200);
    expect((await request('PATCH', `/api/v2/members/${member.id}`, { token: shop.key, body: { status: 'unenrolled' } })).status).toBe(200);
    expect((await issue(session)).status).toBe(401);
    expect((await request('POST', `/api/v2/members/${member.id}/portal-sessions`, { token: shop.key })).status).toBe(409);
  });
});

describe('issuing an Apple pass', () => {
  it('answers a signed .pkpass that openssl verifies against the development WWDR, with the card of the member', async () => {
    const member = await walletMember(request, shop.key, { firstName: 'Ada' });
    await earn(member.id, 640);
    const session = await portalSession(request, shop.key, member.id);
    const res = await issue(session);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.apple.pkpass');
    const pass = unpackPass(res.bytes);
    const json = JSON.parse(pass.files['pass.json']!.toString('utf8'));
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="loyalty-${json.serialNumber}.pkpass"`);
    expect(Object.keys(pass.files).sort()).toEqual(expect.arrayContaining(['icon.png', 'manifest.json', 'pass.json', 'signature']));

    expect(verifyPassSignature(pass.dir, wwdr)).toMatchObject({ ok: true });
    // A manifest that does not match the signature fails ("digest failure").
    const manifest = JSON.parse(pass.files['manifest.json']!.toString('utf8'));
    writeFileSync(join(pass.dir, 'tampered.json'), JSON.stringify({ ...manifest, 'pass.json': '0'.repeat(40) }));
    const tampered = verifyPassSignature(pass.dir, wwdr, 'tampered.json');
    expect(tampered.ok).toBe(false);
    expect(tampered.output).toMatch(/digest failure|bad signature|verification failure/i);
    // And a manifest whose hash does not match the file it lists is caught by the manifest itself.
    expect(manifest['pass.json']).toBe(createHash('sha1').update(pass.files['pass.json']!).digest('hex'));

    expect(json).toMatchObject({
      formatVersion: 1,
      passTypeIdentifier: passTypeId,
      teamIdentifier: expect.any(String),
      serialNumber: expect.stringMatching(/^wps_/),
      organizationName: 'wallet-apple shop',
      description: expect.any(String),
      webServiceURL: `${platform.baseUrl}/api/wallet/apple`,
      backgroundColor: expect.stringMatching(/^rgb\(/),
      foregroundColor: expect.stringMatching(/^rgb\(/),
      barcodes: [expect.objectContaining({ format: 'PKBarcodeFormatQR', message: member.id })],
    });
    expect(json.authenticationToken.length).toBeGreaterThanOrEqual(16);
    expect(json.storeCard.primaryFields).toEqual([expect.objectContaining({ key: 'points', value: 640, changeMessage: expect.stringContaining('%@') })]);
    expect(json.storeCard.headerFields).toEqual([expect.objectContaining({ key: 'tier', value: 'Silver', changeMessage: expect.stringContaining('%@') })]);
  });

  it('returns the same serial when issued again, with a token that works too', async () => {
    const member = await walletMember(request, shop.key);
    const session = await portalSession(request, shop.key, member.id);
    const first = JSON.parse(unpackPass((await issue(session)).bytes).files['pass.json']!.toString());
    const second = JSON.parse(unpackPass((await issue(session)).bytes).files['pass.json']!.toString());
    expect(second.serialNumber).toBe(first.serialNumber);
    expect(second.authenticationToken).not.toBe(first.authenticationToken);
    // Tokens are stored as their SHA-256 only.
    const runtime = await platform.runtime();
    const stored = await documentClientFor(runtime).send(
      new GetCommand({ TableName: runtime.tableName, Key: { pk: `WS#${shop.workspaceId}#MEMBER#${member.id}`, sk: 'WALLETPASS#apple' } }),
    );
    const hash = (t: string) => createHash('sha256').update(t).digest('hex');
    expect(stored.Item!.authTokenHashes).toEqual([hash(first.authenticationToken), hash(second.authenticationToken)]);
    expect(JSON.stringify(stored.Item)).not.toContain(first.authenticationToken);
    expect(JSON.stringify(stored.Item)).not.toContain(second.authenticationToken);
    for (const token of [first.authenticationToken, second.authenticationToken]) {
      const res = await request('GET', `${V1}/passes/${passTypeId}/${first.serialNumber}`, { headers: { authorization: `ApplePass ${token}` } });
      expect(res.status).toBe(200);
    }
  });

  it('8 parallel issues for one member: one serial, and every pass handed out registers a device', async () => {
    const member = await walletMember(request, shop.key);
    const session = await portalSession(request, shop.key, member.id);
    const passes = await Promise.all(Array.from({ length: 8 }, () => issue(session)));
    const jsons = passes.map((p) => {
      expect(p.status).toBe(200);
      return JSON.parse(unpackPass(p.bytes).files['pass.json']!.toString());
    });
    const serial = jsons[0].serialNumber as string;
    expect(new Set(jsons.map((j) => j.serialNumber))).toEqual(new Set([serial]));
    const registered = await Promise.all(
      jsons.map((j, i) =>
        request('POST', `${V1}/devices/${device(40 + i)}/registrations/${passTypeId}/${serial}`, {
          headers: { authorization: `ApplePass ${j.authenticationToken}` },
          body: { pushToken: pushToken(40 + i) },
        }),
      ),
    );
    expect(registered.map((r) => r.status)).toEqual(Array(8).fill(201));
  });

  it('a later issue drops the oldest tokens beyond the cap (5) once they are past the grace period, keeping the newest', async () => {
    const member = await walletMember(request, shop.key);
    const session = await portalSession(request, shop.key, member.id);
    const tokens: string[] = [];
    let serial = '';
    const issueOne = async () => {
      const json = JSON.parse(unpackPass((await issue(session)).bytes).files['pass.json']!.toString());
      tokens.push(json.authenticationToken);
      serial = json.serialNumber;
    };
    for (let i = 0; i < 5; i++) await issueOne();
    // The five were issued an hour ago (past the 10-minute grace in which a token is never dropped).
    const runtime = await platform.runtime();
    const key = { pk: `WS#${shop.workspaceId}#MEMBER#${member.id}`, sk: 'WALLETPASS#apple' };
    const hourAgo = Math.floor(Date.now() / 1000) - 3600;
    const names = Object.fromEntries(tokens.map((t, i) => [`#t${i}`, `tokenAt_${createHash('sha256').update(t).digest('hex')}`]));
    await documentClientFor(runtime).send(
      new UpdateCommand({
        TableName: runtime.tableName,
        Key: key,
        UpdateExpression: `SET ${tokens.map((_, i) => `#t${i} = :old`).join(', ')}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ':old': hourAgo },
      }),
    );
    await issueOne();
    const fetchWith = async (token: string) =>
      (await request('GET', `${V1}/passes/${passTypeId}/${serial}`, { headers: { authorization: `ApplePass ${token}` } })).status;
    expect(await fetchWith(tokens[0]!)).toBe(401);
    for (const token of tokens.slice(1)) expect(await fetchWith(token)).toBe(200);
  });

  it('a burst of seven issues: all seven open the pass within the grace period, then exactly the newest five, with no issue in between', async () => {
    const member = await walletMember(request, shop.key);
    const session = await portalSession(request, shop.key, member.id);
    const tokens: string[] = [];
    let serial = '';
    for (let i = 0; i < 7; i++) {
      const json = JSON.parse(unpackPass((await issue(session)).bytes).files['pass.json']!.toString());
      tokens.push(json.authenticationToken);
      serial = json.serialNumber;
    }
    const fetchWith = async (token: string) =>
      (await request('GET', `${V1}/passes/${passTypeId}/${serial}`, { headers: { authorization: `ApplePass ${token}` } })).status;
    // Issued within the last 10 minutes: every pass handed out works, although the cap is five.
    expect(await Promise.all(tokens.map(fetchWith))).toEqual(Array(7).fill(200));
    // The grace period over (the issue times moved an hour back) and no issue since to trim the list:
    // the two oldest no longer open the pass.
    const runtime = await platform.runtime();
    const key = { pk: `WS#${shop.workspaceId}#MEMBER#${member.id}`, sk: 'WALLETPASS#apple' };
    const names = Object.fromEntries(tokens.map((t, i) => [`#t${i}`, `tokenAt_${createHash('sha256').update(t).digest('hex')}`]));
    await documentClientFor(runtime).send(
      new UpdateCommand({
        TableName: runtime.tableName,
        Key: key,
        UpdateExpression: `SET ${tokens.map((_, i) => `#t${i} = :old`).join(', ')}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ':old': Math.floor(Date.now() / 1000) - 3600 },
      }),
    );
    expect(await Promise.all(tokens.map(fetchWith))).toEqual([401, 401, 200, 200, 200, 200, 200]);
    const stored = await documentClientFor(runtime).send(new GetCommand({ TableName: runtime.tableName, Key: key, ConsistentRead: true }));
    expect(stored.Item!.authTokenHashes).toHaveLength(7);
  });

  it('a session of another workspace never reaches this member', async () => {
    const member = await walletMember(request, shop.key);
    const other = await walletTenant(request, 'wallet-intruder');
    const stranger = await walletMember(request, other.key);
    const session = await portalSession(request, other.key, stranger.id);
    const json = JSON.parse(
      unpackPass((await request('POST', '/api/consumer/wallet/issue', { token: session, body: { platform: 'apple', memberId: member.id } })).bytes).files[
        'pass.json'
      ]!.toString(),
    );
    // The body cannot choose the member: the card is the session's member's.
    expect(json.barcodes[0].message).toBe(stranger.id);
    expect(json.organizationName).toBe('wallet-intruder shop');
  });

  it("shows the workspace's branding: colours and logo from its settings (owner or admin), audited", async () => {
    const other = await walletTenant(request, 'wallet-brand');
    const defaults = await request('GET', '/api/flash/wallet/branding', { token: other.token });
    expect(defaults.body.data).toEqual({ backgroundColor: '#111827', foregroundColor: '#ffffff', labelColor: '#d1d5db', logoPng: null, updatedAt: null });
    const logo = solidPng(160, 50, [200, 30, 40]);
    const put = await request('PUT', '/api/flash/wallet/branding', {
      token: other.token,
      body: { backgroundColor: '#C81E28', foregroundColor: '#000000', logoPng: logo.toString('base64') },
    });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ backgroundColor: '#c81e28', foregroundColor: '#000000', labelColor: '#d1d5db' });
    const member = await walletMember(request, other.key);
    const pass = unpackPass((await issue(await portalSession(request, other.key, member.id))).bytes);
    const json = JSON.parse(pass.files['pass.json']!.toString());
    expect(json).toMatchObject({
      backgroundColor: 'rgb(200, 30, 40)',
      foregroundColor: 'rgb(0, 0, 0)',
      labelColor: 'rgb(209, 213, 219)',
      organizationName: 'wallet-brand shop',
    });
    expect(pass.files['logo.png']!.equals(logo)).toBe(true);
    expect(verifyPassSignature(pass.dir, wwdr)).toMatchObject({ ok: true });

    const audit = await request('GET', '/api/flash/audit?action=wallet_branding.updated', { token: other.token });
    expect(audit.body.data).toEqual([
      expect.objectContaining({ action: 'wallet_branding.updated', target: { type: 'workspace', id: other.workspaceId, href: '/console/wallet' } }),
    ]);
    // Not a PNG, a bad colour, or the wrong credential: refused, nothing changed.
    expect(
      (await request('PUT', '/api/flash/wallet/branding', { token: other.token, body: { logoPng: Buffer.from('GIF89a not a png at all').toString('base64') } }))
        .status,
    ).toBe(422);
    expect((await request('PUT', '/api/flash/wallet/branding', { token: other.token, body: { backgroundColor: 'red' } })).status).toBe(422);
    expect((await request('PUT', '/api/flash/wallet/branding', { token: other.key, body: {} })).status).toBe(403);
    expect((await request('GET', '/api/flash/wallet/branding', { token: other.token })).body.data.backgroundColor).toBe('#c81e28');
  });

  it('refuses a body without a valid platform with a 422, writing nothing', async () => {
    const member = await walletMember(request, shop.key);
    const session = await portalSession(request, shop.key, member.id);
    expect((await request('POST', '/api/consumer/wallet/issue', { token: session, body: { platform: 'windows' } })).status).toBe(422);
    expect((await request('POST', '/api/consumer/wallet/issue', { token: session, raw: '{' })).status).toBe(400);
  });
});

describe("Apple's pass web service", () => {
  async function issued() {
    const member = await walletMember(request, shop.key);
    const session = await portalSession(request, shop.key, member.id);
    const json = JSON.parse(unpackPass((await issue(session)).bytes).files['pass.json']!.toString());
    return { member, serial: json.serialNumber as string, auth: { authorization: `ApplePass ${json.authenticationToken}` } };
  }

  it('runs the whole device dance: register, list, fetch, points change, push, list, fetch', async () => {
    const { member, serial, auth } = await issued();
    const reg = (n: number) => `${V1}/devices/${device(n)}/registrations/${passTypeId}/${serial}`;
    expect((await request('POST', reg(1), { headers: auth, body: { pushToken: pushToken(1) } })).status).toBe(201);
    expect((await request('POST', reg(1), { headers: auth, body: { pushToken: pushToken(1) } })).status).toBe(200);
    expect((await request('POST', reg(2), { headers: auth, body: { pushToken: pushToken(2) } })).status).toBe(201);

    const list = await request('GET', `${V1}/devices/${device(1)}/registrations/${passTypeId}`);
    expect(list.status).toBe(200);
    expect(list.body.serialNumbers).toEqual([serial]);
    const tag = list.body.lastUpdated as string;
    expect((await request('GET', `${V1}/devices/${device(1)}/registrations/${passTypeId}?passesUpdatedSince=${tag}`)).status).toBe(204);

    const fetched = await request('GET', `${V1}/passes/${passTypeId}/${serial}`, { headers: auth });
    expect(fetched.status).toBe(200);
    const lastModified = fetched.headers.get('last-modified')!;
    expect(Date.parse(lastModified)).toBeGreaterThan(Date.now() - 120_000);
    const again = await request('GET', `${V1}/passes/${passTypeId}/${serial}`, { headers: { ...auth, 'if-modified-since': lastModified } });
    expect(again.status).toBe(304);
    expect(again.bytes.length).toBe(0);

    const before = apns.pushes.length;
    const change = await earn(member.id, 75);
    const pushes = await waitFor(() => {
      const mine = apns.pushes.slice(before).filter((p) => p.pushToken === pushToken(1) || p.pushToken === pushToken(2));
      return mine.length >= 2 ? mine : undefined;
    }, 'one push per registered device');
    // Exactly one per device: once the change has gone through, nothing more arrives.
    expect(await settled(change)).toMatchObject({ pushed: 2 });
    const mine = apns.pushes.slice(before).filter((p) => p.pushToken === pushToken(1) || p.pushToken === pushToken(2));
    expect(mine.map((p) => p.pushToken).sort()).toEqual([pushToken(1), pushToken(2)]);
    for (const p of pushes) {
      expect(p.headers[':method']).toBe('POST');
      expect(p.headers[':path']).toBe(`/3/device/${p.pushToken}`);
      expect(p.headers['apns-topic']).toBe(passTypeId);
      expect(JSON.parse(p.body)).toEqual({});
      expect(String(p.headers.authorization)).toMatch(/^bearer [\w-]+\.[\w-]+\.[\w-]+$/);
    }

    const changed = await request('GET', `${V1}/devices/${device(1)}/registrations/${passTypeId}?passesUpdatedSince=${tag}`);
    expect(changed.status).toBe(200);
    expect(changed.body.serialNumbers).toEqual([serial]);
    expect(Number(changed.body.lastUpdated)).toBeGreaterThan(Number(tag));
    const updated = await request('GET', `${V1}/passes/${passTypeId}/${serial}`, { headers: { ...auth, 'if-modified-since': lastModified } });
    expect(updated.status).toBe(200);
    expect(Date.parse(updated.headers.get('last-modified')!)).toBeGreaterThan(Date.parse(lastModified));
    const json = JSON.parse(unpackPass(updated.bytes).files['pass.json']!.toString());
    expect(json.storeCard.primaryFields[0].value).toBe(75);
    expect(json.serialNumber).toBe(serial);
    expect(`ApplePass ${json.authenticationToken}`).toBe(auth.authorization);

    expect((await request('DELETE', reg(2), { headers: auth })).status).toBe(200);
  });

  it('a burst of changes of one member ends in one push per device', async () => {
    const { member, serial, auth } = await issued();
    const reg = `${V1}/devices/${device(7)}/registrations/${passTypeId}/${serial}`;
    expect((await request('POST', reg, { headers: auth, body: { pushToken: pushToken(7) } })).status).toBe(201);
    const marker = await issued();
    const before = apns.pushes.length;
    await Promise.all([earn(member.id, 10), earn(member.id, 20), earn(member.id, 30), earn(member.id, 40)]);
    await waitFor(() => apns.pushes.slice(before).some((p) => p.pushToken === pushToken(7)), 'the push');
    // A change of another member after the burst: the stream is read in order, so once that change
    // has gone through (and the queue is empty) every message of the burst has been worked off.
    await settled(await earn(marker.member.id, 1));
    expect(apns.pushes.slice(before).filter((p) => p.pushToken === pushToken(7))).toHaveLength(1);
  });

  it('removes a registration whose device APNs answers 410 Unregistered', async () => {
    const { member, serial, auth } = await issued();
    const reg = `${V1}/devices/${device(3)}/registrations/${passTypeId}/${serial}`;
    expect((await request('POST', reg, { headers: auth, body: { pushToken: pushToken(3) } })).status).toBe(201);
    apns.answer.set(pushToken(3), { status: 410, reason: 'Unregistered' });
    const before = apns.pushes.length;
    await earn(member.id, 5);
    await waitFor(() => apns.pushes.slice(before).some((p) => p.pushToken === pushToken(3)), 'the push');
    // The registration is gone: the device's list is empty and registering again is new (201).
    await waitFor(async () => (await request('GET', `${V1}/devices/${device(3)}/registrations/${passTypeId}`)).status === 204, 'the registration removed');
    apns.answer.delete(pushToken(3));
    expect((await request('POST', reg, { headers: auth, body: { pushToken: pushToken(3) } })).status).toBe(201);
  });

  it('answers 401 for a wrong or missing ApplePass token, and writes nothing', async () => {
    const { serial } = await issued();
    const wrong = { authorization: `ApplePass ${'x'.repeat(32)}` };
    const reg = `${V1}/devices/${device(4)}/registrations/${passTypeId}/${serial}`;
    expect((await request('POST', reg, { headers: wrong, body: { pushToken: pushToken(4) } })).status).toBe(401);
    expect((await request('POST', reg, { body: { pushToken: pushToken(4) } })).status).toBe(401);
    expect((await request('POST', reg, { headers: { authorization: 'ApplePass' }, body: { pushToken: pushToken(4) } })).status).toBe(401);
    expect((await request('GET', `${V1}/passes/${passTypeId}/${serial}`, { headers: wrong })).status).toBe(401);
    expect((await request('GET', `${V1}/passes/${passTypeId}/${serial}`)).status).toBe(401);
    expect((await request('DELETE', reg, { headers: wrong })).status).toBe(401);
    // A comma inside the token is a malformed token (401), not several Authorization headers (400).
    for (const authorization of [`ApplePass ${'a'.repeat(16)},${'b'.repeat(16)}`, 'ApplePass a,b', 'ApplePass ,']) {
      expect((await request('GET', `${V1}/passes/${passTypeId}/${serial}`, { headers: { authorization } })).status, authorization).toBe(401);
      expect((await request('POST', reg, { headers: { authorization }, body: { pushToken: pushToken(4) } })).status, authorization).toBe(401);
      expect((await request('DELETE', reg, { headers: { authorization } })).status, authorization).toBe(401);
    }
    expect((await request('GET', `${V1}/devices/${device(4)}/registrations/${passTypeId}`)).status).toBe(204);
  });

  it('answers 410 for the serial of an unenrolled member, never a 500', async () => {
    const { member, serial, auth } = await issued();
    expect((await request('PATCH', `/api/v2/members/${member.id}`, { token: shop.key, body: { status: 'unenrolled' } })).status).toBe(200);
    expect((await request('GET', `${V1}/passes/${passTypeId}/${serial}`, { headers: auth })).status).toBe(410);
    const reg = `${V1}/devices/${device(5)}/registrations/${passTypeId}/${serial}`;
    expect((await request('POST', reg, { headers: auth, body: { pushToken: pushToken(5) } })).status).toBe(410);
    expect((await request('GET', `${V1}/devices/${device(5)}/registrations/${passTypeId}`)).status).toBe(204);
  });

  it('answers 410 for the serial of a removed member (its member item gone)', async () => {
    const { member, serial, auth } = await issued();
    const runtime = await platform.runtime();
    await documentClientFor(runtime).send(
      new DeleteCommand({ TableName: runtime.tableName, Key: { pk: `WS#${shop.workspaceId}#MEMBER#${member.id}`, sk: 'MEMBER' } }),
    );
    expect((await request('GET', `${V1}/passes/${passTypeId}/${serial}`, { headers: auth })).status).toBe(410);
    expect(
      (await request('POST', `${V1}/devices/${device(8)}/registrations/${passTypeId}/${serial}`, { headers: auth, body: { pushToken: pushToken(8) } })).status,
    ).toBe(410);
  });

  it('retireMemberPasses (for erasure) makes every serial of the member answer 410 and removes its registrations', async () => {
    const { member, serial, auth } = await issued();
    const reg = `${V1}/devices/${device(9)}/registrations/${passTypeId}/${serial}`;
    expect((await request('POST', reg, { headers: auth, body: { pushToken: pushToken(9) } })).status).toBe(201);
    // Positive control: before retirement, a change of this member pushes to this device.
    const first = apns.pushes.length;
    const control = await earn(member.id, 1);
    expect(await settled(control)).toMatchObject({ pushed: 1 });
    expect(apns.pushes.slice(first).filter((p) => p.pushToken === pushToken(9))).toHaveLength(1);
    const runtime = await platform.runtime();
    Object.assign(process.env, { STAGE: 'local', TABLE_NAME: runtime.tableName, DYNAMODB_ENDPOINT: runtime.dynamodbEndpoint, AWS_REGION: 'eu-west-1' });
    const { retireMemberPasses } = await import('../../shared/wallet/service');
    await retireMemberPasses(shop.workspaceId, member.id);
    // The member is still enrolled: the 410 comes from the retired serial alone.
    expect((await request('GET', `/api/v2/members/${member.id}`, { token: shop.key })).body.data.status).toBe('active');
    expect((await request('GET', `${V1}/passes/${passTypeId}/${serial}`, { headers: auth })).status).toBe(410);
    expect((await request('POST', reg, { headers: auth, body: { pushToken: pushToken(9) } })).status).toBe(410);
    expect((await request('GET', `${V1}/devices/${device(9)}/registrations/${passTypeId}`)).status).toBe(204);
    // The change after retirement still reaches the push worker, which now finds nothing to push.
    const before = apns.pushes.length;
    const after = await earn(member.id, 3);
    expect(await settled(after)).toMatchObject({ pushed: 0 });
    expect(apns.pushes.slice(before).filter((p) => p.pushToken === pushToken(9))).toEqual([]);
  });

  it('gives malformed ids, tags and bodies a clear 4xx and unknown serials a 404', async () => {
    const { serial, auth } = await issued();
    expect(
      (await request('POST', `${V1}/devices/${device(6)}/registrations/${passTypeId}/${serial}`, { headers: auth, body: { pushToken: 'not hex!' } })).status,
    ).toBe(422);
    expect((await request('POST', `${V1}/devices/${device(6)}/registrations/${passTypeId}/${serial}`, { headers: auth, raw: '{' })).status).toBe(400);
    expect(
      (await request('POST', `${V1}/devices/bad%20id/registrations/${passTypeId}/${serial}`, { headers: auth, body: { pushToken: pushToken(6) } })).status,
    ).toBe(422);
    expect((await request('GET', `${V1}/devices/${device(6)}/registrations/${passTypeId}?passesUpdatedSince=yesterday`)).status).toBe(422);
    expect((await request('GET', `${V1}/passes/${passTypeId}/wps_unknown`, { headers: auth })).status).toBe(404);
    expect((await request('GET', `${V1}/passes/pass.other.type/${serial}`, { headers: auth })).status).toBe(404);
    expect((await request('GET', `${V1}/devices/${device(6)}/registrations/${passTypeId}`)).status).toBe(204);
  });

  it('accepts device logs', async () => {
    expect((await request('POST', `${V1}/log`, { body: { logs: ['[2026-11-23] Get pass task failed'] } })).status).toBe(200);
    expect((await request('POST', `${V1}/log`, { body: { logs: 'not a list' } })).status).toBe(422);
  });
});
