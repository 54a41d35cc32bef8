import type { RouteDef } from '../platform/contract/endpoint';

/** Routes a browser may call cross-origin: those a consumer (member portal) session may call. */
export const isCorsRoute = (route: Pick<RouteDef, 'auth'>): boolean => route.auth.includes('consumer');

/** API Gateway's route key of the preflight of a path (the OPTIONS route declared for it). */
export const preflightRouteKey = (path: string): string => `OPTIONS ${path}`;
