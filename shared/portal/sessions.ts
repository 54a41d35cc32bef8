import { config } from '../platform/config';
import { getMemberRecord as getMember, loadWritableMember } from '../members';
import { getConsumerSession, putConsumerSession } from './sessions-repository';
import { digestsEqual, randomToken, sha256Hex, TOKEN_PREFIX } from '../platform/tokens';
import { AppError, memberErased, unauthenticated } from '../platform/errors';

/**
 * Member portal (consumer) sessions. The workspace's own server mints one for a member it has
 * signed in (API key, `members:write`) and hands the token to the member portal embed; consumer
 * routes then take workspace and member from it, never from the request.
 */
export interface ConsumerPrincipal {
  kind: 'consumer';
  workspaceId: string;
  memberId: string;
  expiresAt: number;
}

const INVALID = 'Missing or invalid credential';
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export const isConsumerToken = (token: string): boolean => token.startsWith(TOKEN_PREFIX.consumerSession);

/** A new session for an active member of the workspace: the token is shown once, stored as SHA-256. */
export async function createPortalSession(workspaceId: string, memberId: string, now = new Date()): Promise<{ token: string; expiresAt: string }> {
  const member = await loadWritableMember(workspaceId, memberId);
  if (member.status !== 'active') throw new AppError('CONFLICT', 'The member is unenrolled; a portal session needs an active member');
  const token = randomToken(TOKEN_PREFIX.consumerSession);
  const expiresAt = Math.floor(now.getTime() / 1000) + config.portal.sessionTtlSeconds;
  await putConsumerSession({ tokenHash: sha256Hex(token), workspaceId, memberId, createdAt: now.toISOString(), expiresAt });
  return { token, expiresAt: new Date(expiresAt * 1000).toISOString() };
}

/**
 * The session of a presented `fl_cs_` token. Unknown, expired, or of a member that is no longer
 * active (unenrolled or removed): 401 with the one message every bad credential gets; of an erased
 * member: 410 MEMBER_ERASED where a consumer session is taken (`onConsumerRoute`), elsewhere the same
 * 401 (only the consumer routes document the 410).
 */
export async function resolveConsumerSession(token: string, now = new Date(), onConsumerRoute = true): Promise<ConsumerPrincipal> {
  if (!TOKEN_SHAPE.test(token.slice(TOKEN_PREFIX.consumerSession.length))) throw unauthenticated(INVALID);
  const hash = sha256Hex(token);
  const session = await getConsumerSession(hash);
  // TTL deletion is lazy, so expiry is checked here, not left to DynamoDB.
  if (!session || !digestsEqual(session.tokenHash, hash) || session.expiresAt <= now.getTime() / 1000) throw unauthenticated(INVALID);
  const member = await getMember(session.workspaceId, session.memberId);
  // The session's own member was erased: said plainly, since only that member holds the token.
  if (member?.erasedAt) throw onConsumerRoute ? memberErased() : unauthenticated(INVALID);
  if (member?.status !== 'active') throw unauthenticated(INVALID);
  return { kind: 'consumer', workspaceId: session.workspaceId, memberId: session.memberId, expiresAt: session.expiresAt };
}
