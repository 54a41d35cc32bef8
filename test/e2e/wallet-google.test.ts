import { createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { documentClientFor, startPlatform, type RunningPlatform } from '../support/platform';
import {
  clientOf,
  pendingPushes,
  portalSession,
  refreshOf,
  serverErrors,
  startFakeApns,
  startFakeGoogleWallet,
  waitFor,
  walletMember,
  walletTenant,
  type Client,
  type FakeApns,
  type FakeGoogleWallet,
  type WalletTenant,
} from '../support/wallet';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';

/**
 * Google Wallet cards end to end against a fake Wallet REST API on 127.0.0.1, on a platform of its
 * own configured for Google only (`WALLET_PLATFORMS=google`), so Apple answers WALLET_NOT_CONFIGURED.
 */

let platform: RunningPlatform;
let google: FakeGoogleWallet;
let apns: FakeApns;
let request: Client;
let shop: WalletTenant;
let account: { client_email: string; private_key: string; private_key_id: string };
let issuerId: string;

beforeAll(async () => {
  [google, apns] = await Promise.all([startFakeGoogleWallet(), startFakeApns()]);
  platform = await startPlatform({
    stores: inject('stores'),
    env: { GOOGLE_WALLET_API_URL: google.url, APNS_URL: apns.url, WALLET_PLATFORMS: 'google', POWERTOOLS_LOG_LEVEL: 'INFO' },
  });
  request = clientOf(platform.baseUrl);
  shop = await walletTenant(request, 'wallet-google');
  account = JSON.parse(readFileSync(join(platform.dataDir, 'wallet', 'google-service-account.json'), 'utf8'));
  issuerId = JSON.parse(readFileSync(join(platform.dataDir, 'wallet', 'wallet.json'), 'utf8')).googleIssuerId;
}, 120_000);

afterAll(async () => {
  await platform?.stop();
  await google?.close();
  await apns?.close();
  expect(serverErrors).toEqual([]);
  expect(platform.output()).not.toMatch(/unhandled error/);
});

/** Earns points; returns the request id. */
async function earn(memberId: string, amount: number): Promise<string> {
  const res = await request('POST', `/api/v2/members/${memberId}/points`, { token: shop.key, body: { type: 'earn', amount, reason: 'test' } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.headers.get('x-request-id')!;
}

async function issueGoogle(memberId: string) {
  const session = await portalSession(request, shop.key, memberId);
  const res = await request('POST', '/api/consumer/wallet/issue', { token: session, body: { platform: 'google' } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.saveUrl as string;
}

describe('Google Wallet cards', () => {
  it('creates the class and object over the REST API, then answers a save link whose JWT verifies RS256 with the right claims', async () => {
    const member = await walletMember(request, shop.key);
    await earn(member.id, 120);
    const saveUrl = await issueGoogle(member.id);
    expect(saveUrl).toMatch(/^https:\/\/pay\.google\.com\/gp\/v\/save\/[\w-]+\.[\w-]+\.[\w-]+$/);
    const jwt = saveUrl.slice('https://pay.google.com/gp/v/save/'.length);

    const { payload, protectedHeader } = await jwtVerify(jwt, createPublicKey(account.private_key), {
      algorithms: ['RS256'],
      audience: 'google',
      issuer: account.client_email,
    });
    expect(protectedHeader.alg).toBe('RS256');
    expect(decodeProtectedHeader(jwt).kid).toBe(account.private_key_id);
    expect(payload.typ).toBe('savetowallet');
    expect(payload.origins).toEqual([new URL(platform.baseUrl).origin]);
    const objects = (payload.payload as { loyaltyObjects: Record<string, unknown>[] }).loyaltyObjects;
    expect(objects).toHaveLength(1);
    // Only the ids: the object itself went over the REST API.
    expect(Object.keys(objects[0]!).sort()).toEqual(['classId', 'id']);
    const { id, classId } = objects[0] as { id: string; classId: string };
    expect(classId).toBe(`${issuerId}.${shop.workspaceId}`);
    expect(id).toMatch(new RegExp(`^${issuerId}\\.wps_[a-z0-9]+$`));

    expect(google.classes.get(classId)).toMatchObject({ id: classId, issuerName: 'wallet-google shop', programName: expect.any(String) });
    expect(google.objects.get(id)).toMatchObject({ id, classId, state: 'ACTIVE', accountId: member.id, loyaltyPoints: { balance: { int: 120 } } });
    expect(google.calls.every((c) => c.authorization === 'Bearer local-development-token')).toBe(true);

    // Issuing again: the same object (one per member), brought up to date rather than created twice.
    const again = await issueGoogle(member.id);
    const second = (await jwtVerify(again.slice(33), createPublicKey(account.private_key))).payload.payload as { loyaltyObjects: { id: string }[] };
    expect(second.loyaltyObjects[0]!.id).toBe(id);
  });

  it('a points change sends one PATCH of the object with the new balance', async () => {
    const member = await walletMember(request, shop.key);
    await issueGoogle(member.id);
    const objectId = [...google.objects.values()].find((o) => o.accountId === member.id).id as string;
    const patchesOf = () => google.calls.filter((c) => c.method === 'PATCH' && c.path === `/loyaltyObject/${encodeURIComponent(objectId)}`);
    const before = patchesOf().length;
    const change = await earn(member.id, 42);
    await waitFor(() => patchesOf().length > before, 'the PATCH');
    // Once the push worker logged its refresh for this change and no push message is left, nothing more of it can arrive.
    const { queueDatabase } = await platform.runtime();
    expect(
      await waitFor(() => (pendingPushes(queueDatabase) === 0 ? refreshOf(platform.output(), change) : undefined), 'the refresh of the change'),
    ).toMatchObject({ patched: 1 });
    const patches = patchesOf().slice(before);
    expect(patches).toHaveLength(1);
    expect(patches[0]!.body.loyaltyPoints).toEqual({ label: 'Points', balance: { int: 42 } });
    expect(google.objects.get(objectId).loyaltyPoints.balance.int).toBe(42);
    // Google's field-update notifications are capped per pass and day: no message is ever added.
    expect(google.calls.some((c) => c.path.endsWith('/addMessage'))).toBe(false);
  });
});

describe('a platform left out of WALLET_PLATFORMS', () => {
  it('answers 501 WALLET_NOT_CONFIGURED, with no file, no push and nothing written', async () => {
    const member = await walletMember(request, shop.key);
    const session = await portalSession(request, shop.key, member.id);
    const res = await request('POST', '/api/consumer/wallet/issue', { token: session, body: { platform: 'apple' } });
    expect(res.status).toBe(501);
    expect(res.body.error.code).toBe('WALLET_NOT_CONFIGURED');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const db = documentClientFor(await platform.runtime());
    const items = await db.send(
      new QueryCommand({
        TableName: (await platform.runtime()).tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `WS#${shop.workspaceId}#MEMBER#${member.id}` },
      }),
    );
    expect((items.Items ?? []).filter((i) => String(i.sk).startsWith('WALLET'))).toEqual([]);
    // The pass web service of an unconfigured platform knows no passes.
    expect(
      (await request('GET', '/api/wallet/apple/v1/passes/pass.dev.loyalty.local/wps_x', { headers: { authorization: `ApplePass ${'x'.repeat(32)}` } })).status,
    ).toBe(404);
    expect(apns.pushes).toEqual([]);
  });
});
