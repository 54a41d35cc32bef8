/** The stored item a sealed secret belongs to; bound into the ciphertext, so a copy to another item fails. */
export interface SealedFor {
  workspaceId: string;
  /** Kind and id of the item, e.g. `webhookEndpoint/wh_...`. */
  itemId: string;
}

/** Secrets at rest (webhook and export signing secrets): sealed before they are stored, opened to sign. */
export interface SecretSealer {
  seal(plaintext: string, owner: SealedFor): Promise<string>;
  /** Throws when the sealed text was altered, belongs to another item, or its key is not available. */
  open(sealed: string, owner: SealedFor): Promise<string>;
}

/**
 * The key-encryption key behind the sealer: makes a fresh data key per secret and unwraps it again.
 * AWS: a KMS key (GenerateDataKey/Decrypt); locally: a key file in the data directory.
 */
export interface KeyVault {
  /** Written into each sealed text, so a text sealed elsewhere is refused with a clear error. */
  readonly name: string;
  generateDataKey(owner: SealedFor): Promise<{ plaintext: Buffer; wrapped: Buffer }>;
  unwrapDataKey(wrapped: Buffer, owner: SealedFor): Promise<Buffer>;
}
