import { createHash, timingSafeEqual } from 'node:crypto';
import { secretStoreFromConfig } from '../platform/adapters/secret-store';
import { config } from '../platform/config/index';
import { logger } from '../platform/observability/logger';
import type { HttpEvent } from './types';

/** A host as a URL may carry it: a DNS name or IPv4 address, or a bracketed IPv6 address, with an optional port. */
const SANE_HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}))*|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Whether the request came through the platform's own CloudFront distribution: it carries the
 * secret the distribution adds as `config.http.originVerifyHeader`, one of `accepted` (the current
 * value and, right after a rotation, the previous one). Compared as SHA-256 digests in constant
 * time, so neither the value nor its length shows in the time an answer takes. Without an accepted
 * value (the local runtime) no request qualifies.
 */
export function fromOwnEdge(event: Pick<HttpEvent, 'headers'>, accepted: readonly string[]): boolean {
  const sent = event.headers?.[config.http.originVerifyHeader];
  if (sent === undefined) return false;
  const given = digest(sent);
  let matched = false;
  for (const secret of accepted) if (secret && timingSafeEqual(given, digest(secret))) matched = true;
  return matched;
}

/**
 * The values of the `originVerify` secret a request may carry (`fromOwnEdge`), from the secret store
 * (AWS: read on an instance's first request, then kept). None where none is configured; none either
 * when the store cannot be read: the request is then not taken for the distribution's (its origin is
 * API Gateway's host), which refuses a console write at worst, rather than failing every request.
 */
export async function edgeSecrets(): Promise<readonly string[]> {
  try {
    const versions = await secretStoreFromConfig().versions('originVerify');
    return versions ? [versions.current, ...(versions.previous === undefined ? [] : [versions.previous])] : [];
  } catch (error) {
    logger.warn('secret.unavailable', { event: 'secret.unavailable', secret: 'originVerify', error: error as Error });
    return [];
  }
}

/**
 * The platform's origin as the caller reached it (`https://api.example.com`): the `X-Forwarded-Host`
 * our CloudFront distribution sets (its own host: API Gateway gets its own as `Host`) when the
 * request proves it came from there (`fromOwnEdge`; anyone else could name any host in it), else the
 * `Host` header, else API Gateway's `requestContext.domainName`, with `X-Forwarded-Proto` (API
 * Gateway and the local server both set it; `https` when absent). Undefined when the request names
 * no sane host: links are then relative rather than built from whatever the header held.
 */
export function originOf(
  event: Pick<HttpEvent, 'headers'> & { requestContext?: Partial<Pick<HttpEvent['requestContext'], 'domainName'>> },
  /** The values that prove the distribution sent the request (`edgeSecrets`); none: it is never believed. */
  accepted: readonly string[] = [],
): string | undefined {
  const forwarded = fromOwnEdge(event, accepted) ? event.headers?.['x-forwarded-host'] : undefined;
  const host = forwarded ?? event.headers?.host ?? event.requestContext?.domainName;
  if (!host || host.length > 261 || !SANE_HOST.test(host)) return undefined;
  return `${schemeOf(event)}://${host}`;
}

/** How the caller reached us: `X-Forwarded-Proto` (API Gateway and the local server set it), `https` when absent or odd. */
export function schemeOf(event: Pick<HttpEvent, 'headers'>): 'http' | 'https' {
  const forwarded = event.headers?.['x-forwarded-proto']?.split(',')[0]?.trim().toLowerCase();
  return forwarded === 'http' ? 'http' : 'https';
}

/**
 * Whether a browser says the request comes from a page of another origin: an `Origin` other than
 * ours (`own`, the request's `originOf`; `null` included: a sandboxed or opaque page), or, without
 * one, a `Sec-Fetch-Site` other than `same-origin` or `none` (typed into the address bar). A request
 * with neither comes from no browser (curl, a server), which no login CSRF can use.
 */
export function fromForeignPage(event: Pick<HttpEvent, 'headers'>, own: string | undefined): boolean {
  const origin = event.headers?.origin;
  if (origin !== undefined) return origin !== own;
  const site = event.headers?.['sec-fetch-site'];
  return site !== undefined && site !== 'same-origin' && site !== 'none';
}
