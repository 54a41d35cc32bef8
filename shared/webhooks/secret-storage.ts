import type { SealedFor, SecretSealer } from '../platform/ports/secret-sealer';
import { signingSecrets } from './signing';
import type { SigningSecret } from './types';
import type { StoredSecret } from './entities';

/** The owners of stored signing secrets: what their ciphertext is bound to. */
export const webhookSecretOwner = (workspaceId: string, endpointId: string): SealedFor => ({ workspaceId, itemId: `webhookEndpoint/${endpointId}` });
export const exportSecretOwner = (workspaceId: string): SealedFor => ({ workspaceId, itemId: `exportSigningSecret/${workspaceId}` });

/** A new secret as stored: sealed, never the plaintext. */
export async function sealedSecret(sealer: SecretSealer, owner: SealedFor, value: string, createdAt: string): Promise<StoredSecret> {
  return { sealed: await sealer.seal(value, owner), createdAt, expiresAt: null };
}

/**
 * The previous secret kept for the rotation overlap. One stored before secrets were sealed (a
 * plaintext `value`) is sealed now: every write leaves only sealed secrets behind.
 */
export async function overlapping(sealer: SecretSealer, owner: SealedFor, previous: StoredSecret | undefined, expiresAt: number): Promise<StoredSecret[]> {
  if (!previous) return [];
  const [sealed] = await sealAll(sealer, owner, [previous]);
  return [{ ...sealed!, expiresAt }];
}

/** The stored secrets with any plaintext ones (from before sealing) sealed. */
export async function sealAll(sealer: SecretSealer, owner: SealedFor, stored: StoredSecret[]): Promise<StoredSecret[]> {
  return Promise.all(
    stored.map(async (s) => (s.sealed !== undefined ? s : { sealed: await sealer.seal(s.value!, owner), createdAt: s.createdAt, expiresAt: s.expiresAt })),
  );
}

/** The secrets that sign now, opened (plaintext ones from before sealing are read as they are). */
export async function openSigningSecrets(sealer: SecretSealer, owner: SealedFor, stored: StoredSecret[], nowEpoch: number): Promise<SigningSecret[]> {
  return Promise.all(
    signingSecrets(stored, nowEpoch).map(async (s) => ({
      value: s.sealed !== undefined ? await sealer.open(s.sealed, owner) : s.value!,
      createdAt: s.createdAt,
      expiresAt: s.expiresAt,
    })),
  );
}
