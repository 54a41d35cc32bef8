import { routes, type Area } from './declarations';
import { isCorsRoute, preflightRouteKey } from './cors-routes';
import { routeMatcher } from './route-matcher';

/** The platform's route table (derived from the endpoint declarations). */
export const matchRoute = routeMatcher(routes);

const corsRoutes = routes.filter(isCorsRoute);
const matchCorsRoute = routeMatcher(corsRoutes);

/**
 * An OPTIONS request on the path of a CORS route (a consumer route): the preflight route API
 * Gateway has for that path, to the area that serves it. Undefined for any other path.
 */
export function matchPreflight(path: string): { area: Area; routeKey: string; params: Record<string, string> } | undefined {
  for (const method of new Set(corsRoutes.map((r) => r.method))) {
    const m = matchCorsRoute(method, path);
    if (m.kind === 'route') return { area: m.route.area, routeKey: preflightRouteKey(m.route.path), params: m.params };
  }
  return undefined;
}
