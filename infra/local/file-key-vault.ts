import { randomBytes } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { additionalData, decryptWithKey, encryptWithKey } from '../../shared/platform/adapters/envelope-sealer';
import type { KeyVault, SealedFor } from '../../shared/platform/ports/secret-sealer';

/** Where the local runtime keeps the key that seals signing secrets, under DATA_DIR. */
export const KEY_FILE = join('keys', 'signing-secrets.key');
const KEY_BYTES = 32;

/**
 * The local runtime's key vault in place of AWS KMS: a 256-bit key in `DATA_DIR/keys/`, created on
 * the first start (mode 0600), that wraps each data key with AES-256-GCM bound to the owning item.
 * Losing the file makes every sealed secret unreadable: rotate the secrets then.
 */
export class FileKeyVault implements KeyVault {
  readonly name = 'local';
  private readonly key: Buffer;

  constructor(dataDir: string) {
    this.key = ensureKeyFile(join(dataDir, KEY_FILE));
  }

  async generateDataKey(owner: SealedFor): Promise<{ plaintext: Buffer; wrapped: Buffer }> {
    const plaintext = randomBytes(KEY_BYTES);
    return { plaintext, wrapped: encryptWithKey(this.key, plaintext, additionalData(owner)) };
  }

  async unwrapDataKey(wrapped: Buffer, owner: SealedFor): Promise<Buffer> {
    return decryptWithKey(this.key, wrapped, additionalData(owner));
  }
}

/**
 * Reads the key file, creating it first if absent. Written to a temporary name and hard-linked into
 * place, so runtimes starting together on one directory all end up with the one key.
 */
export function ensureKeyFile(path: string): Buffer {
  mkdirSync(join(path, '..'), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    writeFileSync(tmp, randomBytes(KEY_BYTES), { mode: 0o600, flag: 'wx' });
    chmodSync(tmp, 0o600);
    linkSync(tmp, path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    rmSync(tmp, { force: true });
  }
  const key = readFileSync(path);
  if (key.length !== KEY_BYTES) throw new Error(`${path} must hold ${KEY_BYTES} bytes (delete it to start over; secrets sealed with it are lost)`);
  return key;
}
