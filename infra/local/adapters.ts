import { join } from 'node:path';
import { provideAdapters } from '../../shared/platform/adapters/provided';
import { FileKeyVault } from './file-key-vault';
import { FileMailer } from './file-mailer';
import { LocalQueue } from './local-queue';
import { ensureWalletCredentials, FileWalletCredentials } from './wallet-credentials';

/**
 * The local runtime's adapters in place of SQS, SES, Secrets Manager and KMS: the queue emulation,
 * mail as files, wallet credentials generated into `DATA_DIR/wallet/` and the key sealing signing
 * secrets in `DATA_DIR/keys/`, both on the first start.
 */
export function provideLocalAdapters(dataDir: string): void {
  const walletDir = join(dataDir, 'wallet');
  ensureWalletCredentials(walletDir);
  // A local (http://) Google Wallet API is a fake that takes any bearer token: no OAuth round trip.
  const localGoogle = (process.env.GOOGLE_WALLET_API_URL ?? '').startsWith('http://');
  provideAdapters({
    queue: new LocalQueue(),
    mailer: new FileMailer(join(dataDir, 'mail')),
    walletCredentials: new FileWalletCredentials(walletDir),
    keyVault: new FileKeyVault(dataDir),
    ...(localGoogle ? { googleAccessToken: async () => 'local-development-token' } : {}),
  });
}
