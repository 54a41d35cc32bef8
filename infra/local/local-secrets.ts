import { join } from 'node:path';
import type { SecretName, SecretStore, SecretVersions } from '../../shared/platform/ports/secrets';
import { ensureKeyFile } from './file-key-vault';

/** Where the local runtime keeps the key page cursors are signed with, under DATA_DIR. */
export const CURSOR_KEY_FILE = join('keys', 'page-cursors.key');

/**
 * The local runtime's secrets in place of Secrets Manager. The page cursor key: `CURSOR_SECRET` when
 * set, else 32 random bytes in `DATA_DIR/keys/page-cursors.key` made on the first start (so cursors
 * survive a restart). The origin header's value: `ORIGIN_VERIFY_SECRET` when set (a test that plays
 * the distribution), else none: locally no request is taken for the distribution's.
 */
export class LocalSecrets implements SecretStore {
  private readonly cursorKey: string;

  constructor(dataDir: string) {
    this.cursorKey = ensureKeyFile(join(dataDir, CURSOR_KEY_FILE)).toString('hex');
  }

  async versions(name: SecretName): Promise<SecretVersions | undefined> {
    const fromEnvironment = process.env[name === 'pageCursors' ? 'CURSOR_SECRET' : 'ORIGIN_VERIFY_SECRET'] || undefined;
    if (name === 'pageCursors') return { current: fromEnvironment ?? this.cursorKey };
    return fromEnvironment === undefined ? undefined : { current: fromEnvironment };
  }
}
