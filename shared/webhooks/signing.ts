import { createHmac, randomBytes } from 'node:crypto';
import type { SigningSecret } from './types';

const PREFIX = 'whsec_';

/** 32 random bytes, base64, behind `whsec_` (Standard Webhooks: 24-64 bytes). */
export const newSecret = (): string => PREFIX + randomBytes(32).toString('base64');

/** The secrets that sign now: the current one, plus the previous one during its rotation overlap. */
export const signingSecrets = <S extends Pick<SigningSecret, 'expiresAt'>>(secrets: S[], nowEpoch: number): S[] =>
  secrets.filter((s) => s.expiresAt === null || s.expiresAt > nowEpoch);

/**
 * `webhook-signature` per Standard Webhooks / spec 6.3: HMAC-SHA256 over `{id}.{timestamp}.{body}`
 * with the base64-decoded secret after `whsec_`, base64, as `v1,<sig>`; several separated by spaces.
 */
export function signatureHeader(secrets: SigningSecret[], id: string, timestamp: number, body: string): string {
  return secrets
    .map((s) => {
      const key = Buffer.from(s.value.slice(PREFIX.length), 'base64');
      return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
    })
    .join(' ');
}
