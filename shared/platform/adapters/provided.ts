import type { Mailer } from '../ports/mailer';
import type { ObjectStore } from '../ports/object-store';
import type { Queue } from '../ports/queue';
import type { KeyVault } from '../ports/secret-sealer';
import type { SecretStore } from '../ports/secrets';
import type { WalletCredentialSource } from '../ports/wallet';
import type { Workflows } from '../ports/workflows';

/**
 * Adapters the local runtime supplies in place of the AWS ones (queue emulation, mail to files).
 * It provides them once at start, before any function module runs; in Lambda nothing is provided and
 * each adapter module builds its AWS implementation. So `shared/` holds only what Lambda runs.
 */
export interface ProvidedAdapters {
  queue?: Queue;
  mailer?: Mailer;
  /** Wallet credentials from files (development credentials in DATA_DIR/wallet/). */
  walletCredentials?: WalletCredentialSource;
  /** OAuth access token for the Google Wallet API (a static one for a local fake API). */
  googleAccessToken?: () => Promise<string>;
  /** The local runtime runs workflows in process (aws-local-stepfunctions). */
  workflows?: Workflows;
  /** The key that seals signing secrets: a key file in DATA_DIR in place of AWS KMS. */
  keyVault?: KeyVault;
  /** The page cursor key and the origin header's value: the runtime's own in place of Secrets Manager. */
  secrets?: SecretStore;
  /** Only tests replace the export bucket (the local runtime uses S3 against s3rver). */
  objectStore?: ObjectStore;
}

export const provided: ProvidedAdapters = {};

export function provideAdapters(adapters: ProvidedAdapters): void {
  Object.assign(provided, adapters);
}
