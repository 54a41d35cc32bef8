import { join } from 'node:path';
import { provideAdapters } from '../../shared/platform/adapters/provided';
import { useSecretStore } from '../../shared/platform/ports/secrets';
import { FileKeyVault } from './file-key-vault';
import { FileMailer } from './file-mailer';
import { LocalQueue } from './local-queue';
import { LocalSecrets } from './local-secrets';
import { ensureWalletCredentials, FileWalletCredentials } from './wallet-credentials';

/**
 * The local runtime's adapters in place of SQS, SES, Secrets Manager and KMS: the queue emulation,
 * mail as files, wallet credentials generated into `DATA_DIR/wallet/`, the key sealing signing
 * secrets and the page cursor key in `DATA_DIR/keys/`, all on the first start.
 */
export function provideLocalAdapters(dataDir: string): void {
  const walletDir = join(dataDir, 'wallet');
  ensureWalletCredentials(walletDir);
  // A local (http://) Google Wallet API is a fake that takes any bearer token: no OAuth round trip.
  const localGoogle = (process.env.GOOGLE_WALLET_API_URL ?? '').startsWith('http://');
  const secrets = new LocalSecrets(dataDir);
  provideAdapters({
    secrets,
    queue: new LocalQueue(),
    mailer: new FileMailer(join(dataDir, 'mail')),
    walletCredentials: new FileWalletCredentials(walletDir),
    keyVault: new FileKeyVault(dataDir),
    ...(localGoogle ? { googleAccessToken: async () => 'local-development-token' } : {}),
  });
  // The runtime's own calls (the demo workspace) list too, before any function module is loaded.
  useSecretStore(() => secrets);
}
