import type { KMSClient } from '@aws-sdk/client-kms';
import type { KeyVault, SealedFor } from '../ports/secret-sealer';

/** The KMS SDK is loaded on the first seal or open, not when a function module loads. */
let sdk: Promise<typeof import('@aws-sdk/client-kms')> | undefined;
const kmsSdk = () => (sdk ??= import('@aws-sdk/client-kms'));

/**
 * Data keys from AWS KMS: GenerateDataKey (AES-256) to seal, Decrypt to open. The owning item is
 * also the encryption context, so KMS itself refuses to unwrap a data key for another item and
 * CloudTrail names the item of every unwrap.
 */
export class KmsKeyVault implements KeyVault {
  readonly name = 'kms';
  private client: KMSClient | undefined;

  constructor(
    private readonly keyArn: string,
    private readonly region: string,
  ) {}

  async generateDataKey(owner: SealedFor): Promise<{ plaintext: Buffer; wrapped: Buffer }> {
    const { GenerateDataKeyCommand } = await kmsSdk();
    const out = await (await this.kms()).send(new GenerateDataKeyCommand({ KeyId: this.keyArn, KeySpec: 'AES_256', EncryptionContext: context(owner) }));
    if (!out.Plaintext || !out.CiphertextBlob) throw new Error('KMS returned no data key');
    return { plaintext: Buffer.from(out.Plaintext), wrapped: Buffer.from(out.CiphertextBlob) };
  }

  async unwrapDataKey(wrapped: Buffer, owner: SealedFor): Promise<Buffer> {
    const { DecryptCommand } = await kmsSdk();
    const out = await (await this.kms()).send(new DecryptCommand({ KeyId: this.keyArn, CiphertextBlob: wrapped, EncryptionContext: context(owner) }));
    if (!out.Plaintext) throw new Error('KMS returned no plaintext');
    return Buffer.from(out.Plaintext);
  }

  private async kms(): Promise<KMSClient> {
    this.client ??= new (await kmsSdk()).KMSClient({ region: this.region });
    return this.client;
  }
}

const context = (owner: SealedFor) => ({ workspaceId: owner.workspaceId, item: owner.itemId });
