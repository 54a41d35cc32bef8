import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { config } from '../config';
import { TtlCache } from '../cache';
import type { KeyVault, SealedFor, SecretSealer } from '../ports/secret-sealer';

const FORMAT = 'sealed:v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The additional data of both layers: the owning item, unambiguous whatever the ids contain. */
export const additionalData = (owner: SealedFor): Buffer => Buffer.from(JSON.stringify([FORMAT, owner.workspaceId, owner.itemId]), 'utf8');

/** AES-256-GCM: `iv || ciphertext || tag`, with `aad` authenticated but not stored. */
export function encryptWithKey(key: Buffer, plaintext: Buffer, aad: Buffer): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(aad);
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]);
}

/** Throws unless `box` was made by `encryptWithKey` with this key and this `aad`, unaltered. */
export function decryptWithKey(key: Buffer, box: Buffer, aad: Buffer): Buffer {
  if (box.length < IV_BYTES + TAG_BYTES) throw new SealedSecretError('the sealed secret is truncated');
  const decipher = createDecipheriv('aes-256-gcm', key, box.subarray(0, IV_BYTES)).setAAD(aad);
  decipher.setAuthTag(box.subarray(box.length - TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(box.subarray(IV_BYTES, box.length - TAG_BYTES)), decipher.final()]);
  } catch {
    throw new SealedSecretError('the sealed secret does not belong to this item or was altered');
  }
}

export class SealedSecretError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SealedSecretError';
  }
}

export const isSealed = (stored: string): boolean => stored.startsWith(`${FORMAT}:`);

/**
 * Envelope encryption: each secret gets its own data key from the vault; the secret is encrypted
 * here with AES-256-GCM, its additional data naming the owning item (workspace and item id), and
 * stored as `sealed:v1:<vault>:<wrapped data key>:<iv|ciphertext|tag>` (base64url). Unwrapped data
 * keys are cached briefly by their wrapped form (numbers in `config.secretSealing`).
 */
export class EnvelopeSealer implements SecretSealer {
  private readonly keys = new TtlCache<Buffer>(config.secretSealing.dataKeyCacheSeconds * 1000, config.secretSealing.dataKeyCacheEntries);

  constructor(private readonly vault: KeyVault) {}

  async seal(plaintext: string, owner: SealedFor): Promise<string> {
    const { plaintext: key, wrapped } = await this.vault.generateDataKey(owner);
    const box = encryptWithKey(key, Buffer.from(plaintext, 'utf8'), additionalData(owner));
    key.fill(0);
    return [FORMAT, this.vault.name, wrapped.toString('base64url'), box.toString('base64url')].join(':');
  }

  async open(sealed: string, owner: SealedFor): Promise<string> {
    const parts = sealed.split(':');
    if (parts.length !== 5 || `${parts[0]}:${parts[1]}` !== FORMAT) throw new SealedSecretError('not a sealed secret');
    const [, , vault, wrapped, box] = parts as [string, string, string, string, string];
    if (vault !== this.vault.name) throw new SealedSecretError(`sealed with the ${vault} key vault, this process has ${this.vault.name}`);
    const cacheKey = `${owner.workspaceId}\n${owner.itemId}\n${wrapped}`;
    const key = await this.keys.load(cacheKey, () => this.vault.unwrapDataKey(Buffer.from(wrapped, 'base64url'), owner));
    return decryptWithKey(key, Buffer.from(box, 'base64url'), additionalData(owner)).toString('utf8');
  }
}
