import type { Principal, SessionPrincipal } from '../domain/auth/principal';
import { unauthenticated } from '../domain/errors';

/** For routes whose auth kinds guarantee a principal (the middleware already checked). */
export function principalOf(p: Principal | undefined): Principal {
  if (!p) throw unauthenticated();
  return p;
}

export function sessionOf(p: Principal | undefined): SessionPrincipal {
  if (p?.kind !== 'session') throw unauthenticated('This endpoint needs a user session');
  return p;
}
