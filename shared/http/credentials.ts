import { config } from '../platform/config';
import { getSession, getUser, touchBrowserSession, type BrowserSessionState } from '../auth';
import { findApiKeyByHash, touchApiKey } from '../api-keys';
import { unauthenticated } from '../platform/errors';
import type { Principal } from '../platform/contract/principal';
import { digestsEqual, sha256Hex, TOKEN_PREFIX } from '../platform/tokens';

/** One answer for every bad credential, so a caller learns nothing from the difference. */
const INVALID = 'Missing or invalid credential';
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * Resolves `Authorization: Bearer <token>` to a principal. API keys and sessions are looked up by
 * the SHA-256 of the presented token; the stored digest is compared in constant time.
 */
export async function resolveBearer(token: string, now = new Date(), opts: { stampLastUsed?: boolean } = {}): Promise<Principal> {
  if (token.startsWith(TOKEN_PREFIX.apiKey) || token.startsWith(TOKEN_PREFIX.testApiKey)) return resolveApiKey(token, now, opts.stampLastUsed ?? true);
  if (token.startsWith(TOKEN_PREFIX.session)) return resolveSession(token, now);
  throw unauthenticated(INVALID);
}

/** `stamp`: false where the caller may only read the table (a read stays a read). */
async function resolveApiKey(token: string, now: Date, stamp: boolean): Promise<Principal> {
  if (!TOKEN_SHAPE.test(token.slice(TOKEN_PREFIX.apiKey.length))) throw unauthenticated(INVALID);
  const hash = sha256Hex(token);
  const key = await findApiKeyByHash(hash);
  if (!key || !digestsEqual(key.keyHash, hash)) throw unauthenticated(INVALID);
  if (stamp) await stampLastUsed(key.workspaceId, key.keyId, now);
  return { kind: 'apiKey', workspaceId: key.workspaceId, keyId: key.keyId, scopes: key.scopes };
}

/** Per-process memory of recent stamps: a busy key costs one write per minute, not one per request. */
const lastStamped = new Map<string, number>();

async function stampLastUsed(workspaceId: string, keyId: string, now: Date): Promise<void> {
  const resolution = config.auth.apiKeyLastUsedResolutionSeconds * 1000;
  if (now.getTime() - (lastStamped.get(keyId) ?? 0) < resolution) return;
  lastStamped.set(keyId, now.getTime());
  // Best effort: a failed lastUsedAt stamp must not fail the request it describes.
  await touchApiKey(workspaceId, keyId, now, config.auth.apiKeyLastUsedResolutionSeconds).catch(() => undefined);
}

async function resolveSession(token: string, now: Date): Promise<Principal> {
  if (!TOKEN_SHAPE.test(token.slice(TOKEN_PREFIX.session.length))) throw unauthenticated(INVALID);
  const hash = sha256Hex(token);
  const session = await getSession(hash);
  // TTL deletion is lazy, so expiry is checked here, not left to DynamoDB.
  if (!session || !digestsEqual(session.tokenHash, hash) || session.expiresAt <= now.getTime() / 1000) {
    throw unauthenticated(INVALID);
  }
  const idle = session.browser ? idleState(session.browser, now) : undefined;
  if (idle?.expired) throw unauthenticated('The session ended after a time without use: sign in again');
  const user = await getUser(session.workspaceId, session.userId);
  if (!user || user.sessionGeneration !== session.generation) throw unauthenticated(INVALID);
  if (idle?.stamp) await touchBrowserSession(hash, idle.seenAt, config.browserSession.seenResolutionSeconds).catch(() => undefined);
  return {
    kind: 'session',
    workspaceId: session.workspaceId,
    userId: user.id,
    role: user.role,
    tokenHash: hash,
    expiresAt: session.expiresAt,
    // Signed in without the second factor the workspace required: until the user enrols (then the flag is moot).
    ...(session.enrolmentOnly && !user.mfa ? { mustEnrolMfa: true as const } : {}),
    ...(session.browser && idle
      ? { browser: { csrfToken: session.browser.csrfToken, idleExpiresAt: idle.lastSeenAt + config.browserSession.idleSeconds } }
      : {}),
  };
}

/**
 * A browser session ends once no request came for `idleSeconds`. This request moves its last-seen
 * time forward; the write is skipped while the stored time is within the resolution (a best-effort
 * stamp: a lost one shortens the idle window by at most the resolution).
 */
export function idleState(browser: BrowserSessionState, now: Date): { expired: boolean; stamp: boolean; seenAt: number; lastSeenAt: number } {
  const seenAt = Math.floor(now.getTime() / 1000);
  const { idleSeconds, seenResolutionSeconds } = config.browserSession;
  const stamp = seenAt - browser.lastSeenAt >= seenResolutionSeconds;
  // What the stored time will be after this request: the idle limit counts from it.
  return { expired: seenAt - browser.lastSeenAt >= idleSeconds, stamp, seenAt, lastSeenAt: stamp ? seenAt : browser.lastSeenAt };
}
