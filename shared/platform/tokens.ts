import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** `<prefix><43 base64url chars>`: 256 random bits, far above the 128-bit floor. */
export const randomToken = (prefix: string): string => prefix + randomBytes(32).toString('base64url');

export const sha256Hex = (value: string): string => createHash('sha256').update(value, 'utf8').digest('hex');

/** Compares two hex SHA-256 digests in constant time (both always 32 bytes). */
export function digestsEqual(aHex: string, bHex: string): boolean {
  const a = Buffer.from(aHex, 'hex');
  const b = Buffer.from(bHex, 'hex');
  return a.length === 32 && b.length === 32 && timingSafeEqual(a, b);
}

export const TOKEN_PREFIX = {
  apiKey: 'fl_live_',
  /** The API keys of a sandbox workspace: recognisable at a glance, resolved like live keys. */
  testApiKey: 'fl_test_',
  session: 'fl_sess_',
  resetToken: 'fl_reset_',
  /** The link of a team invitation (single use, expires). */
  invitation: 'fl_inv_',
  /** A member portal (consumer) session, minted by the workspace's server. */
  consumerSession: 'fl_cs_',
  /** The step between a correct password and a two-factor code: no session yet, only the right to send a code. */
  mfaChallenge: 'fl_mfa_',
} as const;

/** The prefix of a new API key follows the workspace's mode. */
export const apiKeyPrefix = (sandbox: boolean): string => (sandbox ? TOKEN_PREFIX.testApiKey : TOKEN_PREFIX.apiKey);
