import { actorOf, type AuditContext } from '../audit';
import type { Principal, SessionPrincipal } from '../platform/contract/principal';
import { unauthenticated } from '../platform/errors';
import type { ConsumerPrincipal } from '../portal';

/** For routes whose auth kinds guarantee a principal (the middleware already checked). */
export function principalOf(p: Principal | undefined): Principal {
  if (!p) throw unauthenticated();
  return p;
}

export function sessionOf(p: Principal | undefined): SessionPrincipal {
  if (p?.kind !== 'session') throw unauthenticated('This endpoint needs a user session');
  return p;
}

/** Who acts in this request (the credential's ids) and the request id: what a change's audit entry needs. */
export function auditOf(input: { principal: Principal | undefined; requestId: string }): AuditContext {
  return { actor: actorOf(principalOf(input.principal)), requestId: input.requestId };
}

/** The member portal session of a consumer route (the middleware already resolved it). */
export function consumerOf(context: { consumer?: ConsumerPrincipal }): ConsumerPrincipal {
  if (!context.consumer) throw unauthenticated('This endpoint needs a consumer session');
  return context.consumer;
}

/**
 * What a member portal session's change records of who acted: the member is no audit actor (no user,
 * no API key), so an entry it caused says `anonymous`, and a ledger entry names no API key.
 */
export function consumerAuditOf(input: { context: { consumer?: ConsumerPrincipal }; requestId: string }): AuditContext {
  consumerOf(input.context);
  return { actor: { type: 'anonymous' }, requestId: input.requestId };
}
