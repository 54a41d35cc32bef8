import * as z from 'zod';
import { getMemberRecord as getMember } from '../members';
import * as repo from './repository';
import { correlated } from '../platform/observability/correlation';
import { logger } from '../platform/observability/logger';
import { emitMetric } from '../platform/observability/metrics';
import type { WalletServices } from '../platform/ports/wallet';
import { cardOf } from './card';
import { contentHash } from './content';
import { serialHashOf } from './service';
import { loyaltyObjectChanges, googleObjectId } from './google-objects';
import { nextLastModified } from './updates';
import { jsonBody } from '../webhooks';

/**
 * Wallet updates after a member's points, tier or status change. The table stream (member items)
 * puts one message per changed member on the wallet push queue, never the request that made the
 * change; the push worker then compares each pass's content with what the card showed, records a
 * new version, and tells the devices (APNs) or Google (PATCH). Comparing content is what coalesces
 * a burst: whichever message comes first sends the new version, the rest find nothing changed.
 */

/** The member fields a card shows (as the stream's images carry them). */
export interface MemberImage {
  workspaceId?: unknown;
  id?: unknown;
  entity?: unknown;
  balance?: unknown;
  tier?: unknown;
  status?: unknown;
  /** The request that made the member's last change (`shared/members/repository.ts`). */
  lastRequestId?: unknown;
}

export interface MemberRef {
  workspaceId: string;
  memberId: string;
  /** The request behind the change (for coalesced changes: the latest one); the push's correlation id. */
  requestId?: string;
}

/**
 * The member whose card may have changed with this stream record: points, tier or status moved, or
 * the member was removed. Undefined for anything else (a profile edit, another entity).
 */
export function changedMember(eventName: string | undefined, oldImage: MemberImage | undefined, newImage: MemberImage | undefined): MemberRef | undefined {
  const image = newImage ?? oldImage;
  if (image?.entity !== 'member' || typeof image.workspaceId !== 'string' || typeof image.id !== 'string') return undefined;
  const ref: MemberRef = { workspaceId: image.workspaceId, memberId: image.id };
  // A removal has no new image, hence no request of its own recorded: it carries none.
  if (eventName === 'REMOVE') return ref;
  if (eventName !== 'MODIFY' || !oldImage || !newImage) return undefined;
  const moved = (['balance', 'tier', 'status'] as const).some((f) => oldImage[f] !== newImage[f]);
  if (!moved) return undefined;
  return typeof newImage.lastRequestId === 'string' ? { ...ref, requestId: newImage.lastRequestId } : ref;
}

/**
 * One entry per member, in first-seen order: a burst in one batch becomes one message, carrying the
 * request id of the member's latest change in the batch (the push shows that change's state).
 */
export function coalesce(refs: readonly MemberRef[]): MemberRef[] {
  const seen = new Map<string, MemberRef>();
  for (const r of refs) {
    const key = `${r.workspaceId}/${r.memberId}`;
    const first = seen.get(key);
    if (!first) seen.set(key, r);
    else if (r.requestId !== first.requestId) {
      const { requestId: _earlier, ...rest } = first;
      seen.set(key, r.requestId ? { ...rest, requestId: r.requestId } : rest);
    }
  }
  return [...seen.values()];
}

/** Older messages have no `requestId`; it is the correlation id of the push's log lines. */
export const pushMessageSchema = z.strictObject({
  workspaceId: z.string().min(1).max(64),
  memberId: z.string().min(1).max(64),
  requestId: z
    .string()
    .regex(/^[A-Za-z0-9._:-]{1,128}$/)
    .optional(),
});

/** A push message's body: JSON text holding a `pushMessageSchema` value. */
export const pushMessageBody = jsonBody(pushMessageSchema);

export interface RefreshResult {
  /** Devices pushed (Apple) and objects patched (Google). */
  pushed: number;
  patched: number;
  /** Registrations removed because APNs refused their token. */
  removed: number;
  /** Something must be tried again later (APNs 429/5xx, Google 5xx, no answer). */
  retry: boolean;
}

/** Brings every pass of one member up to date and tells its devices; what fails retryably is released for the retry. */
export async function refreshMemberPasses(services: WalletServices, ref: MemberRef, now = new Date()): Promise<RefreshResult> {
  const result: RefreshResult = { pushed: 0, patched: 0, removed: 0, retry: false };
  const passes = await repo.listMemberPasses(ref.workspaceId, ref.memberId);
  if (passes.length === 0) return result;
  const member = await getMember(ref.workspaceId, ref.memberId);
  // A removed member: its serials answer 410; there is nothing left to show.
  if (!member) return result;
  const card = await cardOf(member);
  const hash = contentHash(card.content, card.branding);
  for (const pass of passes) {
    // A retired pass (its member being removed) is never shown again: nothing to tell anyone.
    if ((await repo.getSerial(serialHashOf(pass.serial)))?.goneAt) continue;
    // Whoever records the version (this worker, another one, or a device's fetch), the claims below
    // see that each device is told about it exactly once.
    if (pass.contentHash !== hash) await repo.updatePassContent(pass, hash, nextLastModified(pass.lastModified, now.getTime()));
    if (pass.platform === 'apple') {
      const apple = await services.apple();
      if (!apple) continue;
      for (const reg of await repo.listPassRegistrations(pass.workspaceId, pass.memberId, pass.serial)) {
        if (!(await repo.claimRegistrationPush(reg, hash))) continue;
        const outcome = await apple.apns.push(reg.pushToken, apple.passTypeIdentifier);
        if (outcome.kind === 'delivered') result.pushed++;
        else if (outcome.kind === 'unregistered') {
          await repo.deleteRegistrationIfToken(reg);
          result.removed++;
        } else if (outcome.kind === 'retry') {
          await repo.releaseRegistrationPush(reg, hash);
          result.retry = true;
        }
      }
    } else {
      const google = await services.google();
      if (!google) continue;
      if (!(await repo.claimPassSync(pass, hash))) continue;
      const outcome = await google.wallet.patchObject(googleObjectId(google.issuerId, pass.serial), loyaltyObjectChanges(card.content));
      if (outcome.kind === 'ok') result.patched++;
      else if (outcome.kind === 'retry') {
        await repo.releasePassSync(pass, hash);
        result.retry = true;
      }
    }
  }
  return result;
}

/**
 * The metrics and log lines of one member's refresh, once its pushes are done: pushes sent (APNs
 * devices told, Google objects patched) and registrations removed, each line with the request
 * behind the change as `correlationId`. Never a token, a serial or a member's data.
 */
export function reportRefresh(ref: MemberRef, result: RefreshResult): void {
  const base = { ...correlated(ref.requestId), workspaceId: ref.workspaceId, memberId: ref.memberId };
  const sent = [
    { platform: 'apple', devices: result.pushed },
    { platform: 'google', devices: result.patched },
  ].filter((s) => s.devices > 0);
  for (const s of sent) {
    emitMetric('walletPushesSent', s.devices);
    logger.info('wallet.push_sent', { event: 'wallet.push_sent', ...base, ...s });
  }
  if (result.removed > 0) {
    emitMetric('walletRegistrationsRemoved', result.removed);
    logger.info('wallet.registration_removed', { event: 'wallet.registration_removed', ...base, platform: 'apple', devices: result.removed });
  }
}
