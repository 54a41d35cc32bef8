import { PKPass } from 'passkit-generator';
import type { AppleWalletCredentials, WalletSigner } from '../../ports/wallet';

/** passkit-generator: manifest.json (SHA-1 of every file) and its detached PKCS#7 signature, zipped. */
export class PassKitSigner implements WalletSigner {
  constructor(private readonly apple: AppleWalletCredentials) {}

  async sign(files: Record<string, Buffer>): Promise<Buffer> {
    const pass = new PKPass(
      { ...files },
      {
        wwdr: this.apple.wwdrPem,
        signerCert: this.apple.signerCertPem,
        signerKey: this.apple.signerKeyPem,
        ...(this.apple.signerKeyPassphrase ? { signerKeyPassphrase: this.apple.signerKeyPassphrase } : {}),
      },
    );
    return pass.getAsBuffer();
  }
}
