import { randomBytes } from 'node:crypto';
import { config } from '../platform/config';
import { getMemberRecord as getMember, loadWritableMember, type MemberRecord } from '../members';
import * as repo from './repository';
import { newId } from '../platform/ids';
import type { WalletServices } from '../platform/ports/wallet';
import type { WalletPassRecord, WalletPlatform } from './entities';
import { sha256Hex } from '../platform/tokens';
import { AppError } from '../platform/errors';
import { applePassFiles } from './apple-pass';
import { cardOf } from './card';
import { contentHash } from './content';
import { googleClassId, googleObjectId, loyaltyClassOf, loyaltyObjectOf } from './google-objects';
import { nextLastModified } from './updates';

export const notConfigured = (platform: WalletPlatform) =>
  new AppError('WALLET_NOT_CONFIGURED', `Wallet cards for ${platform} are not configured on this platform`);

const unavailable = (what: string) => new AppError('SERVICE_UNAVAILABLE', `${what} could not be reached; retry shortly`, undefined, { 'retry-after': '5' });

export const serialHashOf = (serial: string): string => sha256Hex(serial);
export const newAuthToken = (): string => randomBytes(config.wallet.authTokenBytes).toString('base64url');
export const webServiceUrl = (publicBaseUrl: string): string => `${publicBaseUrl.replace(/\/$/, '')}/api/wallet/apple`;

export type IssuedPass = { platform: 'apple'; serial: string; file: Buffer } | { platform: 'google'; serial: string; saveUrl: string };

interface Caller {
  workspaceId: string;
  memberId: string;
}

/**
 * Issues the member's card on one platform: one pass per member and platform, so issuing again
 * answers the same serial (with a fresh file or link). A platform without credentials is
 * WALLET_NOT_CONFIGURED before anything is read or written.
 */
export async function issuePass(
  services: WalletServices,
  caller: Caller,
  platform: WalletPlatform,
  publicBaseUrl: string,
  now = new Date(),
): Promise<IssuedPass> {
  if (platform === 'apple') {
    const apple = await services.apple();
    if (!apple) throw notConfigured('apple');
    return issueApple(apple, caller, publicBaseUrl, now);
  }
  const google = await services.google();
  if (!google) throw notConfigured('google');
  return issueGoogle(google, caller, publicBaseUrl, now);
}

async function activeMember(caller: Caller): Promise<MemberRecord> {
  const member = await loadWritableMember(caller.workspaceId, caller.memberId);
  if (member.status !== 'active') throw new AppError('GONE', 'The member is unenrolled');
  return member;
}

async function issueApple(
  apple: NonNullable<Awaited<ReturnType<WalletServices['apple']>>>,
  caller: Caller,
  publicBaseUrl: string,
  now: Date,
): Promise<IssuedPass> {
  const member = await activeMember(caller);
  const card = await cardOf(member);
  const hash = contentHash(card.content, card.branding);
  const token = newAuthToken();
  const sign = (serial: string) =>
    apple.signer.sign(
      applePassFiles({
        passTypeIdentifier: apple.passTypeIdentifier,
        teamIdentifier: apple.teamIdentifier,
        serial,
        authenticationToken: token,
        webServiceURL: webServiceUrl(publicBaseUrl),
        ...card,
      }),
    );
  let existing = await repo.getPass(caller.workspaceId, caller.memberId, 'apple');
  if (!existing) {
    // Signed before anything is written: a signing failure leaves no pass behind.
    const pass: WalletPassRecord = {
      workspaceId: caller.workspaceId,
      memberId: caller.memberId,
      platform: 'apple',
      serial: newId('wps'),
      authTokenHashes: [sha256Hex(token)],
      contentHash: hash,
      lastModified: nextLastModified(undefined, now.getTime()),
      createdAt: now.toISOString(),
    };
    const file = await sign(pass.serial);
    if (await repo.createPass(pass, serialHashOf(pass.serial))) return { platform: 'apple', serial: pass.serial, file };
    existing = await repo.getPass(caller.workspaceId, caller.memberId, 'apple');
    if (!existing) throw new AppError('CONFLICT', 'The pass changed meanwhile; retry');
  }
  // Same serial; a new token joins the earlier ones (copies of the pass on other devices keep theirs).
  const file = await sign(existing.serial);
  await addToken(existing, sha256Hex(token), now);
  if (existing.contentHash !== hash) await repo.updatePassContent(existing, hash, nextLastModified(existing.lastModified, now.getTime()));
  return { platform: 'apple', serial: existing.serial, file };
}

/**
 * Adds a token, then drops the oldest ones this issue saw beyond `maxTokensPerPass`, but only those
 * issued more than `tokenGraceSeconds` ago: a pass just handed out (by this or a parallel issue)
 * always works; the list may then hold more until a later issue trims it.
 */
async function addToken(pass: WalletPassRecord, hash: string, now: Date): Promise<void> {
  const epochSeconds = Math.floor(now.getTime() / 1000);
  await repo.addAuthToken(pass, hash, epochSeconds);
  const excess = pass.authTokenHashes.length + 1 - config.wallet.maxTokensPerPass;
  for (const oldest of pass.authTokenHashes.slice(0, Math.max(0, excess))) {
    if (!(await repo.dropOldestAuthToken(pass, oldest, epochSeconds - config.wallet.tokenGraceSeconds))) break;
  }
}

async function issueGoogle(
  google: NonNullable<Awaited<ReturnType<WalletServices['google']>>>,
  caller: Caller,
  publicBaseUrl: string,
  now: Date,
): Promise<IssuedPass> {
  const member = await activeMember(caller);
  const card = await cardOf(member);
  const hash = contentHash(card.content, card.branding);
  let pass = await repo.getPass(caller.workspaceId, caller.memberId, 'google');
  if (!pass) {
    const fresh: WalletPassRecord = {
      workspaceId: caller.workspaceId,
      memberId: caller.memberId,
      platform: 'google',
      serial: newId('wps'),
      authTokenHashes: [],
      // Not yet sent to Google: the push worker compares against this and sends the object if needed.
      contentHash: '',
      lastModified: nextLastModified(undefined, now.getTime()),
      createdAt: now.toISOString(),
    };
    pass = (await repo.createPass(fresh, serialHashOf(fresh.serial))) ? fresh : await repo.getPass(caller.workspaceId, caller.memberId, 'google');
    if (!pass) throw new AppError('CONFLICT', 'The pass changed meanwhile; retry');
  }
  const cls = await google.wallet.upsertClass(loyaltyClassOf(google.issuerId, caller.workspaceId, card.branding));
  if (cls.kind !== 'ok') throw unavailable('Google Wallet');
  const obj = await google.wallet.upsertObject(loyaltyObjectOf(google.issuerId, caller.workspaceId, pass.serial, card.content));
  if (obj.kind !== 'ok') throw unavailable('Google Wallet');
  if (pass.contentHash !== hash) await repo.updatePassContent(pass, hash, nextLastModified(pass.lastModified, now.getTime()));
  await repo.markPassSynced(pass, hash);
  const origin = new URL(publicBaseUrl).origin;
  const saveUrl = await google.wallet.saveUrl(
    { id: googleObjectId(google.issuerId, pass.serial), classId: googleClassId(google.issuerId, caller.workspaceId) },
    [origin],
  );
  return { platform: 'google', serial: pass.serial, saveUrl };
}

/**
 * Retires a member's passes: every serial of the member answers 410 from now on, and no device is
 * pushed again. For removing a member (erasure): call it before the member's items go. An
 * unenrolled member's serials answer 410 without it (derived from the member's status).
 */
export async function retireMemberPasses(workspaceId: string, memberId: string, now = new Date()): Promise<void> {
  for (const pass of await repo.listMemberPasses(workspaceId, memberId)) {
    await repo.markSerialGone(serialHashOf(pass.serial), now.toISOString());
    for (const r of await repo.listPassRegistrations(workspaceId, memberId, pass.serial)) await repo.deleteRegistration(r);
  }
}

/**
 * A member's passes as the data-subject export shows them: platform, serial, when issued and last
 * changed, and the devices registered for updates (the device's own id and when; never its push
 * token or the pass's authentication tokens, which are credentials).
 */
export async function passesOfMember(workspaceId: string, memberId: string) {
  const passes = await repo.listMemberPasses(workspaceId, memberId);
  return Promise.all(
    passes.map(async (p) => ({
      platform: p.platform,
      serial: p.serial,
      issuedAt: p.createdAt,
      lastUpdatedAt: new Date(p.lastModified).toISOString(),
      devices: (await repo.listPassRegistrations(workspaceId, memberId, p.serial)).map((r) => ({
        deviceLibraryIdentifier: r.deviceId,
        registeredAt: r.createdAt,
      })),
    })),
  );
}

/** Whether a serial's member is gone: unknown, removed or unenrolled (its serial answers 410). */
export async function memberOfPass(workspaceId: string, memberId: string): Promise<MemberRecord | undefined> {
  const member = await getMember(workspaceId, memberId);
  return member && member.status === 'active' ? member : undefined;
}
