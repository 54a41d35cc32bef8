import { describe, expect, it } from 'vitest';
import { routes } from '../../shared/contracts/index';
import { originProblem } from '../../shared/domain/portal/cors';
import { preflightTable } from '../../shared/http/cors';
import { isCorsRoute, preflightRouteKey } from '../../shared/http/cors-routes';
import { matchPreflight } from '../../shared/http/route-match';

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
    expect(originProblem('http://shop.example.com')).toBe('https (http only for localhost and 127.0.0.1)');
    expect(originProblem('ftp://shop.example.com')).toBe('https (http only for localhost and 127.0.0.1)');
    for (const v of ['*', 'null', '', 'shop.example.com']) expect(originProblem(v), v).toBe('an origin like https://shop.example.com');
  });
});

describe('CORS routes', () => {
  it('are exactly the routes a consumer session may call', () => {
    expect(routes.filter(isCorsRoute).map((r) => `${r.method} ${r.path}`)).toEqual(['POST /api/consumer/wallet/issue']);
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
