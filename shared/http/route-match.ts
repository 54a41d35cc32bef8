import type { HttpMethod } from '../contracts/endpoint';
import { routes } from '../contracts/index';

type RouteDef = (typeof routes)[number];

interface Compiled {
  route: RouteDef;
  regex: RegExp;
  names: string[];
  /** Literal segments win over parameters, as in API Gateway. */
  literals: number;
}

const compile = (route: RouteDef): Compiled => {
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

const compiled = routes.map(compile);

export type RouteMatch =
  | { kind: 'route'; route: RouteDef; params: Record<string, string> }
  | { kind: 'method_not_allowed'; allow: HttpMethod[] }
  | { kind: 'not_found' };

/** Resolves a request the way API Gateway does: by method, then the most specific path template. */
export function matchRoute(method: string, path: string): RouteMatch {
  const candidates = compiled
    .map((c) => ({ c, m: c.regex.exec(path) }))
    .filter((x): x is { c: Compiled; m: RegExpExecArray } => x.m !== null);
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
