import { createHash, timingSafeEqual } from 'node:crypto';
import { config } from '../platform/config';
import * as repo from './repository';
import type { WalletServices } from '../platform/ports/wallet';
import { sha256Hex } from '../platform/tokens';
import { gone, notFound, unauthenticated } from '../platform/errors';
import type { MemberRecord } from '../members';
import { applePassFiles } from './apple-pass';
import { cardOf } from './card';
import { contentHash } from './content';
import { memberOfPass, serialHashOf, webServiceUrl } from './service';
import type { WalletPassRecord } from './entities';
import { nextLastModified, notModified, updatedSince } from './updates';

/**
 * Apple's pass web service (the device calls it; base = the pass's webServiceURL + `/v1`). Every
 * answer is one of Apple's, and a serial of a removed or unenrolled member is 410, never a 500.
 */

type Apple = NonNullable<Awaited<ReturnType<WalletServices['apple']>>>;

async function appleOf(services: WalletServices): Promise<Apple> {
  const apple = await services.apple();
  // Without Apple credentials there are no Apple passes: nothing to find.
  if (!apple) throw notFound('Pass');
  return apple;
}

/** `ApplePass <token>` (one space, any case of the scheme); anything else is no token. */
export function applePassToken(header: string | undefined): string | undefined {
  const match = header?.match(/^ApplePass ([A-Za-z0-9_-]{16,128})$/i);
  return match?.[1];
}

/** Compares the presented token's digest with every digest of the pass, in constant time and without an early exit. */
export function tokenMatches(presented: string | undefined, hashes: readonly string[]): boolean {
  const digest = createHash('sha256')
    .update(presented ?? '', 'utf8')
    .digest();
  let ok = false;
  for (const h of hashes) {
    const stored = Buffer.from(h, 'hex');
    if (stored.length === digest.length && timingSafeEqual(stored, digest) && presented !== undefined) ok = true;
  }
  return ok;
}

/**
 * The hashes of the tokens that still open a pass: the newest `maxTokensPerPass`, and any issued
 * within the last `tokenGraceSeconds` (a pass just handed out works, however many parallel issues
 * followed it). An issue trims the list later, by the same rule; until then a longer list opens no
 * more than this.
 */
export function liveTokenHashes(hashes: readonly string[], issuedAt: (hash: string) => number | undefined, nowSeconds: number): string[] {
  const newest = hashes.length - config.wallet.maxTokensPerPass;
  const since = nowSeconds - config.wallet.tokenGraceSeconds;
  return hashes.filter((h, i) => i >= newest || (issuedAt(h) ?? Number.NEGATIVE_INFINITY) >= since);
}

const opens = (pass: WalletPassRecord, token: string | undefined, now: Date) =>
  tokenMatches(
    token,
    liveTokenHashes(pass.authTokenHashes, (h) => repo.tokenIssuedAt(pass, h), Math.floor(now.getTime() / 1000)),
  );

interface ResolvedPass {
  pass: WalletPassRecord;
  /** Undefined when the member is removed or unenrolled. */
  member: MemberRecord | undefined;
}

/**
 * The pass a device names, its token checked: 404 for a serial we never issued (or another pass
 * type), 410 once the pass or its member is gone, 401 for a wrong or missing token.
 */
async function authorisedPass(
  apple: Apple,
  passTypeId: string,
  serial: string,
  authorization: string | undefined,
  now: Date,
): Promise<ResolvedPass & { token: string }> {
  if (passTypeId !== apple.passTypeIdentifier) throw notFound('Pass');
  const lookup = await repo.getSerial(serialHashOf(serial));
  if (lookup?.platform !== 'apple' || lookup.serial !== serial) throw notFound('Pass');
  const pass = await repo.getPass(lookup.workspaceId, lookup.memberId, 'apple');
  // Retired, or its member's items removed: gone, whoever asks.
  if (lookup.goneAt || !pass) throw gone('This pass is no longer valid');
  const token = applePassToken(authorization);
  if (!opens(pass, token, now)) throw unauthenticated('Missing or invalid ApplePass token');
  const member = await memberOfPass(lookup.workspaceId, lookup.memberId);
  return { pass, member, token: token! };
}

/** POST devices/{deviceId}/registrations/{passTypeId}/{serial}: 201 new, 200 known (push token refreshed). */
export async function registerDevice(
  services: WalletServices,
  input: { deviceId: string; passTypeId: string; serial: string; pushToken: string; authorization: string | undefined },
  now = new Date(),
): Promise<'created' | 'existing'> {
  const apple = await appleOf(services);
  const { pass, member } = await authorisedPass(apple, input.passTypeId, input.serial, input.authorization, now);
  if (!member) throw gone('The member of this pass is no longer enrolled');
  const key = { workspaceId: pass.workspaceId, memberId: pass.memberId, serial: pass.serial, deviceHash: sha256Hex(input.deviceId) };
  const known = await repo.getRegistration(key);
  if (known && known.pushToken === input.pushToken) return 'existing';
  await repo.putRegistration({
    ...key,
    passTypeId: input.passTypeId,
    deviceId: input.deviceId,
    pushToken: input.pushToken,
    createdAt: known?.createdAt ?? now.toISOString(),
    pushedHash: pass.contentHash,
  });
  return known ? 'existing' : 'created';
}

/** DELETE same path: 200 (also when the device was not registered: the outcome it asks for holds). */
export async function unregisterDevice(
  services: WalletServices,
  input: { deviceId: string; passTypeId: string; serial: string; authorization: string | undefined },
  now = new Date(),
): Promise<void> {
  const apple = await appleOf(services);
  if (input.passTypeId !== apple.passTypeIdentifier) throw notFound('Pass');
  const lookup = await repo.getSerial(serialHashOf(input.serial));
  if (lookup?.platform !== 'apple') throw notFound('Pass');
  const pass = await repo.getPass(lookup.workspaceId, lookup.memberId, 'apple');
  if (!pass) throw gone('This pass is no longer valid');
  if (!opens(pass, applePassToken(input.authorization), now)) throw unauthenticated('Missing or invalid ApplePass token');
  await repo.deleteRegistration({
    workspaceId: pass.workspaceId,
    memberId: pass.memberId,
    serial: pass.serial,
    deviceHash: sha256Hex(input.deviceId),
    passTypeId: input.passTypeId,
  });
}

/** GET devices/{deviceId}/registrations/{passTypeId}?passesUpdatedSince=: the serials changed since the tag, or nothing (204). */
export async function updatedSerials(
  services: WalletServices,
  input: { deviceId: string; passTypeId: string; passesUpdatedSince: string | undefined },
): Promise<{ serialNumbers: string[]; lastUpdated: string } | undefined> {
  const apple = await appleOf(services);
  if (input.passTypeId !== apple.passTypeIdentifier) return undefined;
  const registrations = await repo.listDeviceRegistrations(sha256Hex(input.deviceId), input.passTypeId);
  const passes = await Promise.all(registrations.map((r) => repo.getPass(r.workspaceId, r.memberId, 'apple')));
  const versions = passes.filter((p): p is WalletPassRecord => p !== undefined).map((p) => ({ serial: p.serial, lastModified: p.lastModified }));
  return updatedSince(versions, input.passesUpdatedSince);
}

/**
 * GET passes/{passTypeId}/{serial}: the latest pass with a true Last-Modified (the time its content
 * last changed), or `notModified` for a device that has it. The content is compared here too, so
 * the answer is right even before the push worker has recorded a change.
 */
export async function latestPass(
  services: WalletServices,
  input: { passTypeId: string; serial: string; authorization: string | undefined; ifModifiedSince: string | undefined; publicBaseUrl: string },
  now = new Date(),
): Promise<{ notModified: true; lastModified: number } | { notModified: false; lastModified: number; file: Buffer }> {
  const apple = await appleOf(services);
  const { pass, member, token } = await authorisedPass(apple, input.passTypeId, input.serial, input.authorization, now);
  if (!member) throw gone('The member of this pass is no longer enrolled');
  const card = await cardOf(member);
  const hash = contentHash(card.content, card.branding);
  let lastModified = pass.lastModified;
  if (hash !== pass.contentHash) {
    const next = nextLastModified(pass.lastModified, now.getTime());
    if (await repo.updatePassContent(pass, hash, next)) lastModified = next;
    else lastModified = (await repo.getPass(pass.workspaceId, pass.memberId, 'apple'))?.lastModified ?? next;
  }
  if (notModified(lastModified, input.ifModifiedSince)) return { notModified: true, lastModified };
  const file = await apple.signer.sign(
    applePassFiles({
      passTypeIdentifier: apple.passTypeIdentifier,
      teamIdentifier: apple.teamIdentifier,
      serial: pass.serial,
      // The token the device holds (just verified): an update never changes it.
      authenticationToken: token,
      webServiceURL: webServiceUrl(input.publicBaseUrl),
      ...card,
    }),
  );
  return { notModified: false, lastModified, file };
}

/** POST log: what devices report about their calls, kept in the logs (30 days) for operators. */
export function deviceLogLines(logs: readonly string[]): string[] {
  return logs.slice(0, config.wallet.maxLogLines).map((l) => l.slice(0, config.wallet.maxLogLineLength));
}
