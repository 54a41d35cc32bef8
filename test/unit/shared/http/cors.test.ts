import { describe, expect, it } from 'vitest';
import { routes } from '../../../../shared/http/declarations';
import { LOOPBACK, originProblem } from '../../../../shared/portal/cors';
import { preflightTable } from '../../../../shared/http/cors';
import { isCorsRoute, preflightRouteKey } from '../../../../shared/http/cors-routes';
import { matchPreflight } from '../../../../shared/http/route-match';

describe('allowed origins', () => {
  it('takes an origin exactly as a browser sends it: https, or http on a loopback host', () => {
    for (const ok of [
      'https://shop.example.com',
      'https://shop.example.com:8443',
      'http://localhost:5173',
      'http://127.0.0.1:3000',
      'http://[::1]:8080',
      'https://xn--bcher-kva.example',
    ])
      expect(originProblem(ok), ok).toBeUndefined();
  });

  it('says what is wrong with anything else', () => {
    expect(originProblem('https://shop.example.com/')).toBe('exactly the origin as a browser sends it: https://shop.example.com');
    expect(originProblem('https://shop.example.com/embed')).toBe('exactly the origin as a browser sends it: https://shop.example.com');
    expect(originProblem('https://SHOP.example.com')).toBe('exactly the origin as a browser sends it: https://shop.example.com');
    expect(originProblem('https://shop.example.com:443')).toBe('exactly the origin as a browser sends it: https://shop.example.com');
    expect(originProblem('https://user@shop.example.com')).toBe('exactly the origin as a browser sends it: https://shop.example.com');
    expect(originProblem('http://shop.example.com')).toBe('https (http only for localhost, 127.0.0.1 and [::1])');
    expect(originProblem('ftp://shop.example.com')).toBe('https (http only for localhost, 127.0.0.1 and [::1])');
    for (const v of ['*', 'null', '', 'shop.example.com']) expect(originProblem(v), v).toBe('an origin like https://shop.example.com');
  });
});

describe('allowed origins: wildcards and local hosts', () => {
  it('refuses a wildcard-looking origin, which the URL parser would keep as a literal host matching no page', () => {
    for (const v of ['https://*.shop.example', 'https://*', 'http://*.localhost:3000', 'https://shop.*', 'https://sh*p.example', 'https://%2A.shop.example'])
      expect(originProblem(v), v).toBe('one origin per entry: a wildcard (*) matches no origin');
    for (const v of ['https://shop!.example', 'https://shop.example.', 'https://shop..example', 'http://localhost.:3000'])
      expect(originProblem(v), v).toBe('a host name of letters, digits, hyphens and dots');
    for (const ok of ['https://a_b.example.com', 'https://1.2.3.4', 'https://[2001:db8::1]', 'https://a-1.b-2.example'])
      expect(originProblem(ok), ok).toBeUndefined();
  });

  it('counts exactly localhost, 127.0.0.1 and [::1] as local (http allowed), on any port', () => {
    expect([...LOOPBACK]).toEqual(['localhost', '127.0.0.1', '[::1]']);
    for (const ok of ['http://localhost', 'http://127.0.0.1:8080', 'http://[::1]']) expect(originProblem(ok), ok).toBeUndefined();
    for (const v of ['http://app.localhost:3000', 'http://127.0.0.2', 'http://10.0.0.5:3000', 'http://[::2]', 'http://0.0.0.0:3000'])
      expect(originProblem(v), v).toBe('https (http only for localhost, 127.0.0.1 and [::1])');
  });
});

describe('CORS routes', () => {
  it('are exactly the routes a consumer session may call', () => {
    expect(routes.filter(isCorsRoute).map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /api/consumer/rewards',
      'POST /api/consumer/rewards/{id}/redemptions',
      'GET /api/consumer/redemptions',
      'POST /api/consumer/wallet/issue',
    ]);
    expect(isCorsRoute({ auth: ['apiKey', 'adminSession'] })).toBe(false);
    expect(isCorsRoute({ auth: ['consumer'] })).toBe(true);
  });

  it('a preflight table lists the methods of each CORS path under its OPTIONS route key', () => {
    const table = preflightTable([
      { method: 'POST', path: '/a/{id}', auth: ['consumer'] },
      { method: 'GET', path: '/a/{id}', auth: ['consumer'] },
      { method: 'GET', path: '/b', auth: ['apiKey'] },
    ]);
    expect([...table]).toEqual([['OPTIONS /a/{id}', ['POST', 'GET']]]);
    expect(preflightRouteKey('/x')).toBe('OPTIONS /x');
  });

  it('an OPTIONS request on a consumer path goes to its area as its preflight route; other paths have none', () => {
    expect(matchPreflight('/api/consumer/wallet/issue')).toEqual({ area: 'wallet-passes', routeKey: 'OPTIONS /api/consumer/wallet/issue', params: {} });
    for (const path of ['/api/v2/members', '/api/consumer/wallet/issue/', '/api/consumer', '/']) expect(matchPreflight(path), path).toBeUndefined();
  });
});
