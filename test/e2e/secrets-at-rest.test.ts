import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { KEY_FILE } from '../../infra/local/file-key-vault';
import { keyOf } from '../../shared/platform/data/keys';
import { call } from '../support/api';
import { tenant, type Tenant } from '../support/fixtures';
import { eventually, startReceiver } from '../support/receiver';
import { platformTable } from '../support/table';

/**
 * Signing secrets at rest: the raw items, read straight from the platform's DynamoDB Local, hold
 * only ciphertext; deliveries still verify with the secret handed out once. Items written before
 * sealing (plaintext) still sign and are sealed by their next write.
 */
const receivers: { close(): Promise<void> }[] = [];
afterAll(async () => Promise.all(receivers.map((r) => r.close())));

async function receiver() {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}

async function rawItem(key: { pk: string; sk: string }): Promise<Record<string, any>> {
  const { doc, tableName } = await platformTable();
  const { Item } = await doc.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }));
  return Item!;
}

async function putRaw(item: Record<string, unknown>): Promise<void> {
  const { doc, tableName } = await platformTable();
  await doc.send(new PutCommand({ TableName: tableName, Item: item }));
}

/** Neither the secret nor its key bytes (base64 after `whsec_`) appear anywhere in the item. */
function expectNoTrace(item: Record<string, unknown>, secrets: string[]): void {
  const text = JSON.stringify(item);
  for (const s of secrets) {
    expect(text).not.toContain(s);
    expect(text).not.toContain(s.slice('whsec_'.length));
  }
  expect(text).not.toContain('whsec_');
}

const endpointKey = (t: Tenant, id: string) => keyOf('webhookEndpoint', { workspaceId: t.workspaceId, endpointId: id });

async function pingVerifies(t: Tenant, id: string, r: { received: { body: string; headers: Record<string, unknown> }[] }, secret: string) {
  const before = r.received.length;
  expect((await call('POST', `/api/v2/webhooks/${id}/test`, { token: t.key })).status).toBe(202);
  const got = await eventually(async () => r.received[before], 20_000, 'the ping');
  const headers = {
    'webhook-id': String(got.headers['webhook-id']),
    'webhook-timestamp': String(got.headers['webhook-timestamp']),
    'webhook-signature': String(got.headers['webhook-signature']),
  };
  expect(new Webhook(secret).verify(got.body, headers)).toMatchObject({ type: 'webhook.ping' });
}

describe('webhook signing secrets at rest', () => {
  it('the endpoint item holds only the sealed secret (also after a rotation); deliveries verify with the secret shown once', async () => {
    const t = await tenant('sealed-webhook');
    const r = await receiver();
    const created = (await call('POST', '/api/v2/webhooks', { token: t.key, body: { url: r.url, eventTypes: ['member.created'] } })).body.data;
    const item = await rawItem(endpointKey(t, created.id));
    expect(item.secrets).toEqual([{ sealed: expect.stringMatching(/^sealed:v1:local:/), createdAt: expect.any(String), expiresAt: null }]);
    expectNoTrace(item, [created.secret]);
    await pingVerifies(t, created.id, r, created.secret);

    const rotated = (await call('PATCH', `/api/v2/webhooks/${created.id}`, { token: t.key, body: { action: 'rotate_secret' } })).body.data;
    const after = await rawItem(endpointKey(t, created.id));
    expect(after.secrets).toHaveLength(2);
    expect(after.secrets.map((s: { sealed: string }) => s.sealed.startsWith('sealed:v1:local:'))).toEqual([true, true]);
    expect(after.secrets[1].sealed).toBe(item.secrets[0].sealed);
    expectNoTrace(after, [created.secret, rotated.secret]);
    await pingVerifies(t, created.id, r, rotated.secret);
  });

  it('a sealed secret copied into another endpoint item signs nothing there', async () => {
    const t = await tenant('sealed-copy');
    const r = await receiver();
    const a = (await call('POST', '/api/v2/webhooks', { token: t.key, body: { url: r.url, eventTypes: ['member.created'] } })).body.data;
    const b = (await call('POST', '/api/v2/webhooks', { token: t.key, body: { url: r.url, eventTypes: ['member.created'] } })).body.data;
    const itemA = await rawItem(endpointKey(t, a.id));
    const itemB = await rawItem(endpointKey(t, b.id));
    await putRaw({ ...itemB, secrets: itemA.secrets });
    expect((await call('POST', `/api/v2/webhooks/${b.id}/test`, { token: t.key })).status).toBe(202);
    await sleep(3000);
    // Nothing signed with A's secret reached the receiver on B's behalf.
    const verifiesWithA = r.received.filter((x) => {
      try {
        new Webhook(a.secret).verify(x.body, {
          'webhook-id': String(x.headers['webhook-id']),
          'webhook-timestamp': String(x.headers['webhook-timestamp']),
          'webhook-signature': String(x.headers['webhook-signature']),
        });
        return true;
      } catch {
        return false;
      }
    });
    expect(verifiesWithA).toEqual([]);
  });

  it('an endpoint stored before sealing (plaintext secret) still signs, and its next write seals it', async () => {
    const t = await tenant('sealed-legacy');
    const r = await receiver();
    const created = (await call('POST', '/api/v2/webhooks', { token: t.key, body: { url: r.url, eventTypes: ['member.created'] } })).body.data;
    const legacySecret = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
    const item = await rawItem(endpointKey(t, created.id));
    await putRaw({ ...item, secrets: [{ value: legacySecret, createdAt: item.createdAt, expiresAt: null }] });
    await pingVerifies(t, created.id, r, legacySecret);

    expect((await call('PATCH', `/api/v2/webhooks/${created.id}`, { token: t.key, body: { description: 'touched' } })).status).toBe(200);
    const resealed = await rawItem(endpointKey(t, created.id));
    expect(resealed.secrets).toEqual([{ sealed: expect.stringMatching(/^sealed:v1:local:/), createdAt: item.createdAt, expiresAt: null }]);
    expectNoTrace(resealed, [legacySecret]);
    await pingVerifies(t, created.id, r, legacySecret);
  });
});

describe('export-signing secrets at rest', () => {
  it('the secret item holds only sealed secrets, before and after a rotation', async () => {
    const t = await tenant('sealed-export');
    const first = await call('POST', '/api/flash/exports/signing-secret', { token: t.token });
    expect(first.status).toBe(201);
    const key = keyOf('exportSigningSecret', { workspaceId: t.workspaceId });
    const item = await rawItem(key);
    expect(item.secrets).toEqual([{ sealed: expect.stringMatching(/^sealed:v1:local:/), createdAt: first.body.data.createdAt, expiresAt: null }]);
    expectNoTrace(item, [first.body.data.secret]);
    const second = await call('POST', '/api/flash/exports/signing-secret', { token: t.token });
    const after = await rawItem(key);
    expect(after.secrets.map((s: { sealed?: string }) => s.sealed?.startsWith('sealed:v1:local:'))).toEqual([true, true]);
    expectNoTrace(after, [first.body.data.secret, second.body.data.secret]);
  });

  it('the local key file sits in the data directory with mode 0600', () => {
    expect(statSync(join(inject('dataDir'), KEY_FILE)).mode & 0o777).toBe(0o600);
  });
});
