import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import forge from 'node-forge';
import type { WalletCredentials, WalletCredentialSource } from '../../shared/platform/ports/wallet';

/**
 * Development credentials of both pass platforms, generated on the first start into
 * `DATA_DIR/wallet/` and read from there afterwards, so a newcomer can issue both kinds of card at
 * once and a test can verify signatures against them:
 *
 * - `wwdr.pem` (+ `wwdr-key.pem`): a self-signed CA playing Apple's WWDR intermediate;
 * - `pass-type.pem` + `pass-type-key.pem`: a pass-type certificate signed by it;
 * - `apns-key.p8`: an ES256 key for APNs provider tokens;
 * - `google-service-account.json`: a service-account key file (RSA);
 * - `wallet.json`: the identifiers (pass type id, team id, APNs key id, Google issuer id).
 *
 * Real devices need Apple's WWDR G4 and a pass-type certificate from Apple: replace the files.
 */

export const WALLET_FILES = {
  wwdr: 'wwdr.pem',
  wwdrKey: 'wwdr-key.pem',
  signerCert: 'pass-type.pem',
  signerKey: 'pass-type-key.pem',
  apnsKey: 'apns-key.p8',
  googleServiceAccount: 'google-service-account.json',
  identifiers: 'wallet.json',
} as const;

interface Identifiers {
  passTypeIdentifier: string;
  teamIdentifier: string;
  apnsKeyId: string;
  googleIssuerId: string;
}

interface Issued {
  cert: forge.pki.Certificate;
  key: forge.pki.rsa.PrivateKey;
  certPem: string;
  keyPem: string;
}

/**
 * An RSA certificate valid for ten years, self-signed or signed by `issuer`. node-forge (pure
 * JavaScript) rather than the openssl command: the local runtime needs nothing but Node and Java.
 */
function certificate(opts: { subject: forge.pki.CertificateField[]; extensions: object[]; issuer?: Issued }): Issued {
  const keys = forge.pki.rsa.generateKeyPair({ bits: 2048 });
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = `01${randomBytes(8).toString('hex')}`;
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 3650 * 24 * 3600 * 1000);
  cert.setSubject(opts.subject);
  cert.setIssuer(opts.issuer ? opts.issuer.cert.subject.attributes : opts.subject);
  cert.setExtensions([...opts.extensions, { name: 'subjectKeyIdentifier' }]);
  cert.sign(opts.issuer ? opts.issuer.key : keys.privateKey, forge.md.sha256.create());
  return { cert, key: keys.privateKey, certPem: forge.pki.certificateToPem(cert), keyPem: forge.pki.privateKeyToPem(keys.privateKey) };
}

/** Writes the credentials into `dir` unless they are already there (aside first, then renamed: never half a set). */
export function ensureWalletCredentials(dir: string): void {
  if (existsSync(join(dir, WALLET_FILES.identifiers))) return;
  const work = `${dir}.tmp-${process.pid}`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const ids: Identifiers = {
    passTypeIdentifier: 'pass.dev.loyalty.local',
    teamIdentifier: 'LOCALTEAM1',
    apnsKeyId: randomBytes(5).toString('hex').toUpperCase(),
    googleIssuerId: `33880000${String(Date.now()).slice(-11)}`,
  };
  const ca = certificate({
    subject: [
      { name: 'commonName', value: 'Local Development WWDR CA' },
      { name: 'organizationName', value: 'Loyalty platform (development)' },
    ],
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  const signer = certificate({
    subject: [
      { type: '0.9.2342.19200300.100.1.1', value: ids.passTypeIdentifier },
      { name: 'commonName', value: `Pass Type ID: ${ids.passTypeIdentifier}` },
      { name: 'organizationalUnitName', value: ids.teamIdentifier },
      { name: 'organizationName', value: 'Loyalty platform (development)' },
    ],
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', clientAuth: true },
    ],
    issuer: ca,
  });
  writeFileSync(join(work, WALLET_FILES.wwdr), ca.certPem);
  writeFileSync(join(work, WALLET_FILES.wwdrKey), ca.keyPem);
  writeFileSync(join(work, WALLET_FILES.signerCert), signer.certPem);
  writeFileSync(join(work, WALLET_FILES.signerKey), signer.keyPem);

  const apns = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  writeFileSync(join(work, WALLET_FILES.apnsKey), apns.privateKey.export({ type: 'pkcs8', format: 'pem' }));
  const google = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const serviceAccount = {
    type: 'service_account',
    project_id: 'loyalty-local',
    private_key_id: randomBytes(20).toString('hex'),
    private_key: google.privateKey.export({ type: 'pkcs8', format: 'pem' }),
    client_email: 'wallet-issuer@loyalty-local.iam.gserviceaccount.com',
    token_uri: 'https://oauth2.googleapis.com/token',
  };
  writeFileSync(join(work, WALLET_FILES.googleServiceAccount), JSON.stringify(serviceAccount, null, 2));
  writeFileSync(join(work, WALLET_FILES.identifiers), JSON.stringify(ids, null, 2));
  rmSync(dir, { recursive: true, force: true });
  renameSync(work, dir);
}

/** Reads the files as the platform's credentials (once per process). */
export class FileWalletCredentials implements WalletCredentialSource {
  #loaded: Promise<WalletCredentials> | undefined;

  constructor(private readonly dir: string) {}

  load(): Promise<WalletCredentials> {
    this.#loaded ??= Promise.resolve().then(() => this.read());
    return this.#loaded;
  }

  private read(): WalletCredentials {
    const file = (name: string) => readFileSync(join(this.dir, name), 'utf8');
    const ids = JSON.parse(file(WALLET_FILES.identifiers)) as Identifiers;
    return {
      apple: {
        passTypeIdentifier: ids.passTypeIdentifier,
        teamIdentifier: ids.teamIdentifier,
        wwdrPem: file(WALLET_FILES.wwdr),
        signerCertPem: file(WALLET_FILES.signerCert),
        signerKeyPem: file(WALLET_FILES.signerKey),
        apns: { mode: 'token', keyId: ids.apnsKeyId, teamId: ids.teamIdentifier, keyPem: file(WALLET_FILES.apnsKey) },
      },
      google: { issuerId: ids.googleIssuerId, serviceAccount: JSON.parse(file(WALLET_FILES.googleServiceAccount)) },
    };
  }
}
