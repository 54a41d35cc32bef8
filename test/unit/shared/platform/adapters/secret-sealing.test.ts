import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileKeyVault, KEY_FILE } from '../../../../../infra/local/file-key-vault';
import { additionalData, decryptWithKey, EnvelopeSealer, encryptWithKey, isSealed } from '../../../../../shared/platform/adapters/envelope-sealer';
import { openSigningSecrets, sealAll, webhookSecretOwner, exportSecretOwner } from '../../../../../shared/webhooks/secret-storage';
import type { KeyVault, SealedFor } from '../../../../../shared/platform/ports/secret-sealer';

const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const owner: SealedFor = { workspaceId: 'ws_aaaaaaaaaaaaaaaaaaaa', itemId: 'webhookEndpoint/whe_bbbbbbbbbbbbbbbbbbbb' };
const dataDir = () => mkdtempSync(join(tmpdir(), 'sealing-'));

/** A real file vault that counts how often a data key is unwrapped. */
function countingVault(vault: KeyVault) {
  const counter = { unwraps: 0 };
  const counted: KeyVault = {
    name: vault.name,
    generateDataKey: (o) => vault.generateDataKey(o),
    unwrapDataKey: (w, o) => {
      counter.unwraps++;
      return vault.unwrapDataKey(w, o);
    },
  };
  return { counted, counter };
}

describe('AES-256-GCM with additional data', () => {
  const key = Buffer.alloc(32, 1);
  const aad = additionalData(owner);

  it('is iv (12) + ciphertext (as long as the plaintext) + tag (16), and opens with the same key and aad', () => {
    const box = encryptWithKey(key, Buffer.from('hello'), aad);
    expect(box.length).toBe(12 + 5 + 16);
    expect(decryptWithKey(key, box, aad).toString()).toBe('hello');
    expect(encryptWithKey(key, Buffer.from('hello'), aad).equals(box)).toBe(false);
  });

  it('refuses another aad, another key, any altered byte, and a truncated box', () => {
    const box = encryptWithKey(key, Buffer.from('hello'), aad);
    expect(() => decryptWithKey(key, box, additionalData({ ...owner, itemId: 'webhookEndpoint/whe_other' }))).toThrow(
      'does not belong to this item or was altered',
    );
    expect(() => decryptWithKey(Buffer.alloc(32, 2), box, aad)).toThrow('does not belong to this item or was altered');
    for (let i = 0; i < box.length; i++) {
      const bad = Buffer.from(box);
      bad[i]! ^= 1;
      expect(() => decryptWithKey(key, bad, aad), `byte ${i}`).toThrow('does not belong to this item or was altered');
    }
    expect(() => decryptWithKey(key, box.subarray(0, 27), aad)).toThrow('truncated');
  });

  it('the additional data names workspace and item unambiguously', () => {
    expect(additionalData({ workspaceId: 'a', itemId: 'b' }).toString()).toBe('["sealed:v1","a","b"]');
    expect(additionalData({ workspaceId: 'a","b', itemId: 'c' }).equals(additionalData({ workspaceId: 'a', itemId: 'b","c' }))).toBe(false);
  });
});

describe('envelope sealer over the local key file', () => {
  it('seals to sealed:v1:local:<wrapped key>:<box> holding no trace of the secret, and opens it again', async () => {
    const sealer = new EnvelopeSealer(new FileKeyVault(dataDir()));
    const sealed = await sealer.seal(SECRET, owner);
    expect(sealed).toMatch(/^sealed:v1:local:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+$/);
    expect(isSealed(sealed)).toBe(true);
    for (const trace of [SECRET, SECRET.slice(6), Buffer.from(SECRET).toString('base64'), Buffer.from(SECRET).toString('base64url')])
      expect(sealed).not.toContain(trace);
    expect(await sealer.open(sealed, owner)).toBe(SECRET);
    expect(await sealer.seal(SECRET, owner)).not.toBe(sealed);
  });

  it('a sealed secret copied to another item or workspace does not open', async () => {
    const sealer = new EnvelopeSealer(new FileKeyVault(dataDir()));
    const sealed = await sealer.seal(SECRET, owner);
    await expect(sealer.open(sealed, { ...owner, itemId: 'webhookEndpoint/whe_cccccccccccccccccccc' })).rejects.toThrow(
      'does not belong to this item or was altered',
    );
    await expect(sealer.open(sealed, { ...owner, workspaceId: 'ws_dddddddddddddddddddd' })).rejects.toThrow('does not belong to this item or was altered');
    await expect(sealer.open(sealed, exportSecretOwner(owner.workspaceId))).rejects.toThrow('does not belong to this item or was altered');
  });

  it('refuses an altered wrapped key or box, another vault, and text that is not sealed', async () => {
    const sealer = new EnvelopeSealer(new FileKeyVault(dataDir()));
    const sealed = await sealer.seal(SECRET, owner);
    const [format, version, vault, wrapped, box] = sealed.split(':') as [string, string, string, string, string];
    const flip = (b64: string) => {
      const bytes = Buffer.from(b64, 'base64url');
      bytes[bytes.length - 1]! ^= 1;
      return bytes.toString('base64url');
    };
    await expect(sealer.open([format, version, vault, flip(wrapped), box].join(':'), owner)).rejects.toThrow('does not belong to this item or was altered');
    await expect(sealer.open([format, version, vault, wrapped, flip(box)].join(':'), owner)).rejects.toThrow('does not belong to this item or was altered');
    await expect(sealer.open([format, version, 'kms', wrapped, box].join(':'), owner)).rejects.toThrow('sealed with the kms key vault, this process has local');
    await expect(sealer.open(SECRET, owner)).rejects.toThrow('not a sealed secret');
    await expect(sealer.open(`${sealed}:x`, owner)).rejects.toThrow('not a sealed secret');
    expect(isSealed(SECRET)).toBe(false);
  });

  it('another data directory (another key) cannot open it', async () => {
    const sealed = await new EnvelopeSealer(new FileKeyVault(dataDir())).seal(SECRET, owner);
    await expect(new EnvelopeSealer(new FileKeyVault(dataDir())).open(sealed, owner)).rejects.toThrow('does not belong to this item or was altered');
  });

  it('keeps an unwrapped data key for a while: opening the same secret again unwraps nothing', async () => {
    const { counted, counter } = countingVault(new FileKeyVault(dataDir()));
    const sealer = new EnvelopeSealer(counted);
    const a = await sealer.seal(SECRET, owner);
    const b = await sealer.seal('whsec_other', owner);
    for (let i = 0; i < 3; i++) expect(await sealer.open(a, owner)).toBe(SECRET);
    expect(counter.unwraps).toBe(1);
    expect(await sealer.open(b, owner)).toBe('whsec_other');
    expect(counter.unwraps).toBe(2);
  });
});

describe('the local key file', () => {
  it('is created on first use as 32 random bytes, mode 0600 in a 0700 directory, and reused afterwards', async () => {
    const dir = dataDir();
    const sealed = await new EnvelopeSealer(new FileKeyVault(dir)).seal(SECRET, owner);
    const path = join(dir, KEY_FILE);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'keys')).mode & 0o777).toBe(0o700);
    const key = readFileSync(path);
    expect(key.length).toBe(32);
    expect(await new EnvelopeSealer(new FileKeyVault(dir)).open(sealed, owner)).toBe(SECRET);
    expect(readFileSync(path).equals(key)).toBe(true);
  });

  it('a key file of the wrong size is refused at start', () => {
    const dir = dataDir();
    new FileKeyVault(dir);
    writeFileSync(join(dir, KEY_FILE), 'short');
    expect(() => new FileKeyVault(dir)).toThrow('must hold 32 bytes');
  });
});

describe('stored signing secrets', () => {
  it('plaintext secrets from before sealing still sign, and any write seals them', async () => {
    const sealer = new EnvelopeSealer(new FileKeyVault(dataDir()));
    const o = webhookSecretOwner(owner.workspaceId, 'whe_eeeeeeeeeeeeeeeeeeee');
    const legacy = [
      { value: SECRET, createdAt: '2026-01-01T00:00:00.000Z', expiresAt: null },
      { value: 'whsec_old', createdAt: '2025-01-01T00:00:00.000Z', expiresAt: 100 },
    ];
    expect(await openSigningSecrets(sealer, o, legacy, 50)).toEqual(legacy);
    expect(await openSigningSecrets(sealer, o, legacy, 100)).toEqual([legacy[0]]);
    const sealed = await sealAll(sealer, o, legacy);
    expect(sealed.map((s) => Object.keys(s).sort())).toEqual([
      ['createdAt', 'expiresAt', 'sealed'],
      ['createdAt', 'expiresAt', 'sealed'],
    ]);
    expect(JSON.stringify(sealed)).not.toContain('whsec_');
    expect(await openSigningSecrets(sealer, o, sealed, 50)).toEqual(legacy);
    expect(await sealAll(sealer, o, sealed)).toEqual(sealed);
  });
});
