import { join } from 'node:path';
import { provideAdapters } from '../../shared/adapters/provided';
import { FileMailer } from './file-mailer';
import { LocalQueue } from './local-queue';
import { ensureWalletCredentials, FileWalletCredentials } from './wallet-credentials';

/**
 * The local runtime's adapters in place of SQS, SES and Secrets Manager: the queue emulation, mail
 * as files, and wallet credentials generated into `DATA_DIR/wallet/` on the first start.
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
    ...(localGoogle ? { googleAccessToken: async () => 'local-development-token' } : {}),
  });
}
