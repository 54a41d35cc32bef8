import { DecryptCommand, GenerateDataKeyCommand, KMSClient } from '@aws-sdk/client-kms';
import type { KeyVault, SealedFor } from '../ports/secret-sealer';

/**
 * Data keys from AWS KMS: GenerateDataKey (AES-256) to seal, Decrypt to open. The owning item is
 * also the encryption context, so KMS itself refuses to unwrap a data key for another item and
 * CloudTrail names the item of every unwrap.
 */
export class KmsKeyVault implements KeyVault {
  readonly name = 'kms';
  private readonly client: KMSClient;

  constructor(private readonly keyArn: string, region: string) {
    this.client = new KMSClient({ region });
  }

  async generateDataKey(owner: SealedFor): Promise<{ plaintext: Buffer; wrapped: Buffer }> {
    const out = await this.client.send(new GenerateDataKeyCommand({ KeyId: this.keyArn, KeySpec: 'AES_256', EncryptionContext: context(owner) }));
    if (!out.Plaintext || !out.CiphertextBlob) throw new Error('KMS returned no data key');
    return { plaintext: Buffer.from(out.Plaintext), wrapped: Buffer.from(out.CiphertextBlob) };
  }

  async unwrapDataKey(wrapped: Buffer, owner: SealedFor): Promise<Buffer> {
    const out = await this.client.send(new DecryptCommand({ KeyId: this.keyArn, CiphertextBlob: wrapped, EncryptionContext: context(owner) }));
    if (!out.Plaintext) throw new Error('KMS returned no plaintext');
    return Buffer.from(out.Plaintext);
  }
}

const context = (owner: SealedFor) => ({ workspaceId: owner.workspaceId, item: owner.itemId });
