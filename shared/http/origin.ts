import type { HttpEvent } from './types';

/** A host as a URL may carry it: a DNS name or IPv4 address, or a bracketed IPv6 address, with an optional port. */
const SANE_HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}))*|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

/**
 * The platform's origin as the caller reached it (`https://api.example.com`), from the
 * `X-Forwarded-Host` the CloudFront distribution sets (its own host: API Gateway gets its own as
 * `Host`), else the `Host` header, else API Gateway's `requestContext.domainName` and `X-Forwarded-Proto` (API Gateway and
 * the local server both set it; `https` when absent). Undefined when the request names no sane
 * host: links are then relative rather than built from whatever the header held.
 */
export function originOf(
  event: Pick<HttpEvent, 'headers'> & { requestContext?: Partial<Pick<HttpEvent['requestContext'], 'domainName'>> },
): string | undefined {
  const host = event.headers?.['x-forwarded-host'] ?? event.headers?.host ?? event.requestContext?.domainName;
  if (!host || host.length > 261 || !SANE_HOST.test(host)) return undefined;
  return `${schemeOf(event)}://${host}`;
}

/** How the caller reached us: `X-Forwarded-Proto` (API Gateway and the local server set it), `https` when absent or odd. */
export function schemeOf(event: Pick<HttpEvent, 'headers'>): 'http' | 'https' {
  const forwarded = event.headers?.['x-forwarded-proto']?.split(',')[0]?.trim().toLowerCase();
  return forwarded === 'http' ? 'http' : 'https';
}
