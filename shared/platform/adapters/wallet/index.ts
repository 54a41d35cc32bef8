import { runtimeConfig } from '../../config';
import type { AppleWalletCredentials, WalletCredentialSource, WalletServices, WalletSigner } from '../../ports/wallet';
import { provided } from '../provided';
import { Http2ApnsClient } from './apns';
import { SecretsManagerWalletCredentials } from './credentials';
import { RestGoogleWallet, serviceAccountTokenProvider } from './google';

/**
 * Per signer factory: in AWS a process is one function, but the local runtime runs every function in
 * one process, where the push worker (no signer) must not hand its clients to the wallet area.
 */
const built = new Map<(apple: AppleWalletCredentials) => WalletSigner, WalletServices>();

/** Credentials from the local runtime's files, else from the Secrets Manager secret (none: nothing configured). */
function credentialSource(): WalletCredentialSource {
  if (provided.walletCredentials) return provided.walletCredentials;
  const arn = runtimeConfig().WALLET_SECRET_ARN;
  return arn ? new SecretsManagerWalletCredentials(arn) : { load: async () => ({}) };
}

/** Functions that never sign a pass (the push worker) leave the pass signer out of their bundle. */
const noSigner = (): WalletSigner => ({
  sign: async () => {
    throw new Error('this function signs no passes');
  },
});

/**
 * The process's wallet clients, built once from configuration (credentials read on first use).
 * `signer` makes the pass signer from the Apple credentials: given by the functions that sign
 * (`PkpassSigner`), so only they bundle it.
 */
export function walletFromConfig(signer: (apple: AppleWalletCredentials) => WalletSigner = noSigner): WalletServices {
  const known = built.get(signer);
  if (known) return known;
  const cfg = runtimeConfig();
  const source = credentialSource();
  const enabled = new Set(cfg.WALLET_PLATFORMS);
  let apple: Awaited<ReturnType<WalletServices['apple']>>;
  let google: Awaited<ReturnType<WalletServices['google']>>;
  const services: WalletServices = {
    apple: async () => {
      if (!enabled.has('apple')) return undefined;
      if (apple) return apple;
      const creds = (await source.load()).apple;
      if (!creds) return undefined;
      apple = {
        passTypeIdentifier: creds.passTypeIdentifier,
        teamIdentifier: creds.teamIdentifier,
        signer: signer(creds),
        apns: new Http2ApnsClient(cfg.APNS_URL, creds.apns, { certPem: creds.signerCertPem, keyPem: creds.signerKeyPem }),
      };
      return apple;
    },
    google: async () => {
      if (!enabled.has('google')) return undefined;
      if (google) return google;
      const creds = (await source.load()).google;
      if (!creds) return undefined;
      const token = provided.googleAccessToken ?? serviceAccountTokenProvider(creds.serviceAccount);
      google = { issuerId: creds.issuerId, wallet: new RestGoogleWallet(cfg.GOOGLE_WALLET_API_URL, creds, token) };
      return google;
    },
  };
  built.set(signer, services);
  return services;
}
