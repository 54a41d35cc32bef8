import * as repo from '../../data/repositories/exports';
import { withOptimisticRetry } from '../../data/table';
import { webhookSettings } from '../../config';
import { audited, type AuditContext } from '../audit/service';
import { newSecret, signingSecrets } from '../webhooks/signing';
import type { SigningSecret } from '../webhooks/types';

/**
 * The workspace's export-signing secret: signs completion notices the Standard Webhooks way, like
 * webhook deliveries (same signing code). Created or rotated by an admin and shown once; after a
 * rotation the previous secret keeps signing next to the new one for the webhooks' overlap.
 */
export async function rotateSigningSecret(workspaceId: string, audit: AuditContext, now = new Date()): Promise<{ secret: string; createdAt: string }> {
  const at = now.toISOString();
  const secret = newSecret();
  const overlapEnds = Math.floor(now.getTime() / 1000) + webhookSettings().rotationOverlapSeconds;
  await withOptimisticRetry(async () => {
    const current = await repo.getSigningSecrets(workspaceId);
    // Only the newest previous secret overlaps; anything older stops signing now.
    const previous = current?.secrets[0] ? [{ ...current.secrets[0], expiresAt: overlapEnds }] : [];
    await repo.putSigningSecrets(workspaceId, [{ value: secret, createdAt: at, expiresAt: null }, ...previous], current?.version, [
      audited(workspaceId, audit, 'export.signing_secret_rotated', { type: 'exportSigningSecret', id: workspaceId }, now),
    ]);
  });
  return { secret, createdAt: at };
}

export async function hasSigningSecret(workspaceId: string): Promise<boolean> {
  return (await repo.getSigningSecrets(workspaceId)) !== undefined;
}

/** The secrets that sign now. */
export async function activeSigningSecrets(workspaceId: string, nowEpoch: number): Promise<SigningSecret[]> {
  const stored = await repo.getSigningSecrets(workspaceId);
  return stored ? signingSecrets(stored.secrets, nowEpoch) : [];
}
