import * as repo from './repository';
import { withOptimisticRetry } from '../platform/data/concurrency';
import { webhookSettings } from '../platform/config';
import { audited, type AuditContext } from '../audit';
import type { SecretSealer } from '../platform/ports/secret-sealer';
import { exportSecretOwner, openSigningSecrets, overlapping, sealedSecret, newSecret, type SigningSecret } from '../webhooks';

/**
 * The workspace's export-signing secret: signs completion notices the Standard Webhooks way, like
 * webhook deliveries (same signing code). Created or rotated by an admin and shown once; after a
 * rotation the previous secret keeps signing next to the new one for the webhooks' overlap.
 */
export async function rotateSigningSecret(
  workspaceId: string,
  sealer: SecretSealer,
  audit: AuditContext,
  now = new Date(),
): Promise<{ secret: string; createdAt: string }> {
  const at = now.toISOString();
  const secret = newSecret();
  const overlapEnds = Math.floor(now.getTime() / 1000) + webhookSettings().rotationOverlapSeconds;
  const owner = exportSecretOwner(workspaceId);
  const sealed = await sealedSecret(sealer, owner, secret, at);
  await withOptimisticRetry(async () => {
    const current = await repo.getSigningSecrets(workspaceId);
    // Only the newest previous secret overlaps; anything older stops signing now.
    const previous = await overlapping(sealer, owner, current?.secrets[0], overlapEnds);
    await repo.putSigningSecrets(workspaceId, [sealed, ...previous], current?.version, [
      audited(workspaceId, audit, 'export.signing_secret_rotated', { type: 'exportSigningSecret', id: workspaceId }, now),
    ]);
  });
  return { secret, createdAt: at };
}

export async function hasSigningSecret(workspaceId: string): Promise<boolean> {
  return (await repo.getSigningSecrets(workspaceId)) !== undefined;
}

/** The secrets that sign now, opened. */
export async function activeSigningSecrets(workspaceId: string, sealer: SecretSealer, nowEpoch: number): Promise<SigningSecret[]> {
  const stored = await repo.getSigningSecrets(workspaceId);
  return stored ? openSigningSecrets(sealer, exportSecretOwner(workspaceId), stored.secrets, nowEpoch) : [];
}
