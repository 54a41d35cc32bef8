import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GetSecretValueCommand } from '@aws-sdk/client-secrets-manager';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LocalSecrets } from '../../../../../infra/local/local-secrets';
import { provided } from '../../../../../shared/platform/adapters/provided';
import { SecretsManagerStore, secretStoreFromConfig } from '../../../../../shared/platform/adapters/secret-store';
import { config } from '../../../../../shared/platform/config/index';
import { decodeCursor, encodeCursor } from '../../../../../shared/platform/data/cursor';
import { type SecretStore, type SecretVersions, useSecretStore } from '../../../../../shared/platform/ports/secrets';

/**
 * The run-time secrets: the Secrets Manager adapter's cache (read once, refreshed behind the kept
 * value, the previous version offered for a while after a rotation), the local adapter, and page
 * cursors across a rotation. Secrets Manager has no local peer: its client is replaced by a fake
 * that answers GetSecretValue, the one call the adapter makes.
 */

const ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:CursorSecret-abc';
const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const { refreshMs, previousAcceptedMs } = config.secrets;

type Answer = { SecretString?: string; CreatedDate?: Date } | Error | Promise<{ SecretString?: string; CreatedDate?: Date }>;

/** A Secrets Manager client that answers from `answers` (by version stage) and records each call. */
function fakeClient(answers: { current: () => Answer; previous?: () => Answer }) {
  const calls: { SecretId?: string; VersionStage?: string }[] = [];
  const client = {
    send: async (command: GetSecretValueCommand) => {
      calls.push(command.input);
      const answer = command.input.VersionStage === 'AWSPREVIOUS' ? (answers.previous?.() ?? new Error('ResourceNotFoundException')) : answers.current();
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
  return { client: client as never, calls };
}

describe('the Secrets Manager store', () => {
  // Rotated long before: no previous version is asked for.
  const long = new Date(-previousAcceptedMs);

  it('reads a secret once for the life of the instance, however many uses, concurrent first ones included', async () => {
    let now = 1_000_000;
    const { client, calls } = fakeClient({ current: () => ({ SecretString: A, CreatedDate: long }) });
    const store = new SecretsManagerStore({ pageCursors: ARN }, client, () => now);
    const first = await Promise.all([store.versions('pageCursors'), store.versions('pageCursors'), store.versions('pageCursors')]);
    for (let i = 0; i < 50; i++) {
      now += 1000;
      expect(await store.versions('pageCursors')).toEqual({ current: A });
    }
    expect(first).toEqual([{ current: A }, { current: A }, { current: A }]);
    expect(calls).toEqual([{ SecretId: ARN }]);
  });

  it('after the refresh period serves the kept value at once and reads again behind it, once per period', async () => {
    let now = 0;
    let value = A;
    let release: () => void = () => undefined;
    let gate: Promise<void> = Promise.resolve();
    const { client, calls } = fakeClient({ current: () => gate.then(() => ({ SecretString: value, CreatedDate: long })) });
    const store = new SecretsManagerStore({ pageCursors: ARN }, client, () => now);
    expect(await store.versions('pageCursors')).toEqual({ current: A });

    // A rotated value; its read hangs: the use still answers with the kept one.
    value = B;
    gate = new Promise<void>((r) => (release = r));
    now = refreshMs - 1;
    expect(await store.versions('pageCursors')).toEqual({ current: A });
    expect(calls).toHaveLength(1);
    now = refreshMs;
    expect(await store.versions('pageCursors')).toEqual({ current: A });
    expect(await store.versions('pageCursors')).toEqual({ current: A });
    expect(calls).toHaveLength(2);
    release();
    await gate;
    await new Promise((r) => setImmediate(r));
    expect(await store.versions('pageCursors')).toEqual({ current: B });
    expect(calls).toHaveLength(2);
  });

  it('keeps the old value when a refresh fails, and tries again only a period later', async () => {
    let now = 0;
    let fail = false;
    const warn = vi.spyOn((await import('../../../../../shared/platform/observability/logger')).logger, 'warn').mockImplementation(() => undefined);
    const { client, calls } = fakeClient({ current: () => (fail ? new Error('throttled') : { SecretString: A, CreatedDate: long }) });
    const store = new SecretsManagerStore({ pageCursors: ARN }, client, () => now);
    await store.versions('pageCursors');
    fail = true;
    now = refreshMs;
    expect(await store.versions('pageCursors')).toEqual({ current: A });
    await new Promise((r) => setImmediate(r));
    expect(await store.versions('pageCursors')).toEqual({ current: A });
    expect(calls).toHaveLength(2);
    expect(warn).toHaveBeenCalledWith('secret.refresh_failed', expect.objectContaining({ secret: 'pageCursors' }));
    now = 2 * refreshMs;
    await store.versions('pageCursors');
    expect(calls).toHaveLength(3);
    warn.mockRestore();
  });

  it('does not keep a failed first read: the next use reads again', async () => {
    let fail = true;
    const { client, calls } = fakeClient({ current: () => (fail ? new Error('AccessDeniedException') : { SecretString: A, CreatedDate: long }) });
    const store = new SecretsManagerStore({ pageCursors: ARN }, client, () => 0);
    await expect(store.versions('pageCursors')).rejects.toThrow('AccessDeniedException');
    fail = false;
    expect(await store.versions('pageCursors')).toEqual({ current: A });
    expect(calls).toHaveLength(2);
  });

  it('right after a rotation also offers the previous version, until previousAcceptedMs after the rotation', async () => {
    const rotatedAt = 10 * previousAcceptedMs;
    let now = rotatedAt + 1000;
    const { client, calls } = fakeClient({
      current: () => ({ SecretString: B, CreatedDate: new Date(rotatedAt) }),
      previous: () => ({ SecretString: A }),
    });
    const store = new SecretsManagerStore({ pageCursors: ARN }, client, () => now);
    expect(await store.versions('pageCursors')).toEqual({ current: B, previous: A });
    expect(calls).toEqual([{ SecretId: ARN }, { SecretId: ARN, VersionStage: 'AWSPREVIOUS' }]);
    now = rotatedAt + previousAcceptedMs - 1;
    expect((await store.versions('pageCursors')).previous).toBe(A);
    now = rotatedAt + previousAcceptedMs;
    expect(await store.versions('pageCursors')).toEqual({ current: B });
  });

  it('asks for no previous version long after the last rotation, and offers none where there is none', async () => {
    const old = fakeClient({ current: () => ({ SecretString: A, CreatedDate: long }), previous: () => ({ SecretString: B }) });
    expect(await new SecretsManagerStore({ pageCursors: ARN }, old.client, () => previousAcceptedMs).versions('pageCursors')).toEqual({ current: A });
    expect(old.calls).toEqual([{ SecretId: ARN }]);
    // A fresh secret has no AWSPREVIOUS (ResourceNotFoundException).
    const fresh = fakeClient({ current: () => ({ SecretString: A, CreatedDate: new Date(5) }) });
    expect(await new SecretsManagerStore({ pageCursors: ARN }, fresh.client, () => 10).versions('pageCursors')).toEqual({ current: A });
    expect(fresh.calls).toHaveLength(2);
  });

  it('refuses a secret the function was not given (no ARN: its access does not declare it), without a call', async () => {
    const { client, calls } = fakeClient({ current: () => ({ SecretString: A }) });
    const store = new SecretsManagerStore({ pageCursors: ARN }, client, () => 0);
    await expect(store.versions('originVerify')).rejects.toThrow(
      'ORIGIN_VERIFY_SECRET_ARN is not set: this function declares no access to the originVerify secret',
    );
    expect(calls).toEqual([]);
  });

  it('is the store of a function in AWS; the local runtime provides its own in its place', () => {
    const before = provided.secrets;
    try {
      const local: SecretStore = { versions: async () => undefined };
      provided.secrets = local;
      expect(secretStoreFromConfig()).toBe(local);
    } finally {
      provided.secrets = before;
    }
  });
});

describe('the local runtime secrets', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('keeps the page cursor key in DATA_DIR (the same after a restart), CURSOR_SECRET in its place when set', async () => {
    vi.stubEnv('CURSOR_SECRET', '');
    const dir = mkdtempSync(join(tmpdir(), 'loyalty-secrets-'));
    const key = (await new LocalSecrets(dir).versions('pageCursors'))!.current;
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect((await new LocalSecrets(dir).versions('pageCursors'))!.current).toBe(key);
    expect((await new LocalSecrets(mkdtempSync(join(tmpdir(), 'loyalty-secrets-'))).versions('pageCursors'))!.current).not.toBe(key);
    vi.stubEnv('CURSOR_SECRET', A);
    expect(await new LocalSecrets(dir).versions('pageCursors')).toEqual({ current: A });
  });

  it('has no origin secret unless ORIGIN_VERIFY_SECRET plays the distribution', async () => {
    const store = new LocalSecrets(mkdtempSync(join(tmpdir(), 'loyalty-secrets-')));
    vi.stubEnv('ORIGIN_VERIFY_SECRET', '');
    expect(await store.versions('originVerify')).toBeUndefined();
    vi.stubEnv('ORIGIN_VERIFY_SECRET', B);
    expect(await store.versions('originVerify')).toEqual({ current: B });
  });
});

describe('page cursors across a rotation of their key', () => {
  let versions: SecretVersions | undefined;
  const scope = { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': 'WS#ws_1' } };
  const partition = { attr: 'pk', value: 'WS#ws_1' };
  const lastKey = { pk: 'WS#ws_1', sk: 'MEMBER#mbr_1' };
  // The port, as the function's entry hands it over; its values set per test.
  const withKeys = (v: SecretVersions | undefined) => {
    versions = v;
    useSecretStore(() => ({ versions: async () => versions }));
  };
  afterEach(() => useSecretStore(secretStoreFromConfig));

  it('are signed with the current value and still accepted with the previous one while the store offers it', async () => {
    withKeys({ current: A });
    const before = await encodeCursor(lastKey, scope);
    withKeys({ current: B, previous: A });
    expect(await decodeCursor(before, scope, partition)).toEqual(lastKey);
    const after = await encodeCursor(lastKey, scope);
    expect(after).not.toBe(before);
    expect(after.split('.')[0]).toBe(before.split('.')[0]);
    expect(await decodeCursor(after, scope, partition)).toEqual(lastKey);
    // Once the previous value is no longer offered, a cursor signed with it is one we never issued.
    withKeys({ current: B });
    await expect(decodeCursor(before, scope, partition)).rejects.toThrow('Invalid cursor');
    expect(await decodeCursor(after, scope, partition)).toEqual(lastKey);
    // Signed with the previous value only, never issued with it.
    withKeys({ current: A, previous: B });
    await expect(decodeCursor(after, scope, partition)).resolves.toEqual(lastKey);
    expect(await encodeCursor(lastKey, scope)).toBe(before);
  });

  it('refuse a key shorter than 32 characters, and a store without the secret', async () => {
    withKeys({ current: 'short' });
    await expect(encodeCursor(lastKey, scope)).rejects.toThrow('at least 32 characters');
    withKeys(undefined);
    await expect(encodeCursor(lastKey, scope)).rejects.toThrow('not configured');
  });
});
