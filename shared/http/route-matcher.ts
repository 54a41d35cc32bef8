import type { Endpoint, HttpMethod } from '../platform/contract/endpoint';

/**
 * How a request finds its route, the way API Gateway resolves it, over any table of methods and
 * paths: the route table (`route-match.ts`), or the routes the shipped OpenAPI document names (the
 * system function, whose bundle carries no contract).
 */

export type Routable = Pick<Endpoint, 'method' | 'path'>;

interface Compiled<RouteDef extends Routable> {
  route: RouteDef;
  regex: RegExp;
  names: string[];
  /** Literal segments win over parameters, as in API Gateway. */
  literals: number;
}

const compile = <RouteDef extends Routable>(route: RouteDef): Compiled<RouteDef> => {
  const names: string[] = [];
  const segments = route.path.split('/').slice(1);
  const pattern = segments
    .map((seg) => {
      const m = seg.match(/^\{(\w+)\}$/);
      if (!m) return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(m[1]!);
      return '([^/]+)';
    })
    .join('/');
  return { route, regex: new RegExp(`^/${pattern}$`), names, literals: segments.filter((s) => !s.startsWith('{')).length };
};

export type RouteMatch<RouteDef extends Routable> =
  | { kind: 'route'; route: RouteDef; params: Record<string, string> }
  | { kind: 'method_not_allowed'; allow: HttpMethod[] }
  | { kind: 'not_found' };

/** A matcher over a route table that resolves a request the way API Gateway does: by method, then the most specific path template. */
export function routeMatcher<RouteDef extends Routable>(table: readonly RouteDef[]): (method: string, path: string) => RouteMatch<RouteDef> {
  const compiled = table.map((r) => compile(r));
  return (method, path) => match(compiled, method, path);
}

function match<RouteDef extends Routable>(compiled: Compiled<RouteDef>[], method: string, path: string): RouteMatch<RouteDef> {
  const candidates = compiled.map((c) => ({ c, m: c.regex.exec(path) })).filter((x): x is { c: Compiled<RouteDef>; m: RegExpExecArray } => x.m !== null);
  if (candidates.length === 0) return { kind: 'not_found' };
  const forMethod = candidates.filter((x) => x.c.route.method === method).sort((a, b) => b.c.literals - a.c.literals);
  const best = forMethod[0];
  if (!best) {
    const allow = [...new Set(candidates.map((x) => x.c.route.method))].sort();
    return { kind: 'method_not_allowed', allow };
  }
  const params: Record<string, string> = {};
  best.c.names.forEach((name, i) => {
    const raw = best.m[i + 1]!;
    try {
      params[name] = decodeURIComponent(raw);
    } catch {
      params[name] = raw; // malformed escapes cannot name anything: the handler answers 404
    }
  });
  return { kind: 'route', route: best.c.route, params };
}
