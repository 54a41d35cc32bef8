/**
 * Wallet cards: the credentials of the two pass platforms and the three things done with them.
 * In AWS the credentials come from Secrets Manager (read once per container); the local runtime
 * generates development credentials into `DATA_DIR/wallet/` and reads them from there.
 */

/** APNs: token auth (ES256 provider token from a .p8 key) or the pass-type certificate as TLS client certificate. */
export type ApnsAuth = { mode: 'token'; keyId: string; teamId: string; keyPem: string } | { mode: 'certificate' };

export interface AppleWalletCredentials {
  passTypeIdentifier: string;
  teamIdentifier: string;
  /** Apple's WWDR intermediate (a self-made CA locally), the pass-type certificate and its key (PEM). */
  wwdrPem: string;
  signerCertPem: string;
  signerKeyPem: string;
  signerKeyPassphrase?: string;
  apns: ApnsAuth;
}

/** The fields of a Google Cloud service-account key file the platform uses. */
export interface GoogleServiceAccount {
  client_email: string;
  private_key: string;
  private_key_id?: string;
  token_uri?: string;
}

export interface GoogleWalletCredentials {
  /** The Google Wallet issuer id: every class and object id starts with it. */
  issuerId: string;
  serviceAccount: GoogleServiceAccount;
}

export interface WalletCredentials {
  apple?: AppleWalletCredentials;
  google?: GoogleWalletCredentials;
}

/** Where credentials come from (Secrets Manager or files); loaded once per process. */
export interface WalletCredentialSource {
  load(): Promise<WalletCredentials>;
}

/** Signs a pass bundle (pass.json and images) into a `.pkpass` (PKCS#7 detached signature over manifest.json). */
export interface WalletSigner {
  sign(files: Record<string, Buffer>): Promise<Buffer>;
}

export type ApnsOutcome =
  | { kind: 'delivered' }
  /** The device token is no longer valid for this topic (410 Unregistered, 400 BadDeviceToken / DeviceTokenNotForTopic). */
  | { kind: 'unregistered'; status: number; reason: string }
  /** Try again later (429, 5xx, 403 ExpiredProviderToken, connection errors, time-outs). */
  | { kind: 'retry'; status: number | null; reason: string }
  /** Any other refusal: not retried, the registration kept. */
  | { kind: 'failed'; status: number; reason: string };

/** Apple Push Notification service: an empty-payload push that makes Wallet fetch the updated pass. */
export interface ApnsClient {
  push(pushToken: string, topic: string): Promise<ApnsOutcome>;
}

export type GoogleCallOutcome = { kind: 'ok' } | { kind: 'retry'; status: number | null; reason: string } | { kind: 'failed'; status: number; reason: string };

/** Google Wallet REST API (loyalty classes and objects) and save links. */
export interface GoogleWallet {
  /** Creates the class, or updates it when it exists. */
  upsertClass(loyaltyClass: Record<string, unknown> & { id: string }): Promise<GoogleCallOutcome>;
  /** Creates the object, or patches it when it exists. */
  upsertObject(loyaltyObject: Record<string, unknown> & { id: string }): Promise<GoogleCallOutcome>;
  patchObject(id: string, patch: Record<string, unknown>): Promise<GoogleCallOutcome>;
  /** `https://pay.google.com/gp/v/save/<JWT>`, the JWT carrying only the object's and class's ids. */
  saveUrl(object: { id: string; classId: string }, origins: string[]): Promise<string>;
}

/**
 * What the wallet domain is given: each platform's identifiers and clients, or undefined when that
 * platform is not configured (left out of WALLET_PLATFORMS, or no credentials for it).
 */
export interface WalletServices {
  apple(): Promise<{ passTypeIdentifier: string; teamIdentifier: string; signer: WalletSigner; apns: ApnsClient } | undefined>;
  google(): Promise<{ issuerId: string; wallet: GoogleWallet } | undefined>;
}
