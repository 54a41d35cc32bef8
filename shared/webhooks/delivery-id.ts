import { createHash } from 'node:crypto';

const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';

/**
 * One event to one endpoint has one delivery id, derived from both: a fan-out that runs twice
 * (at least once) produces the same id, so the log stays one delivery with several attempts.
 */
export function deliveryIdOf(eventId: string, endpointId: string): string {
  const digest = createHash('sha256').update(`${eventId}|${endpointId}`).digest();
  let out = '';
  for (let i = 0; i < 26; i++) out += CROCKFORD[digest[i]! & 31];
  return `dlv_${out}`;
}
