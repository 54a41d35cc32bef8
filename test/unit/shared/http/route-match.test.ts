import { describe, expect, it } from 'vitest';
import { matchRoute } from '../../../../shared/http/route-match';
import { routeMatcher } from '../../../../shared/http/route-matcher';

// Only the public behaviour of matchRoute on endpoints the API documents; which module declares the
// routes does not matter here.

describe('route matching: literal segments', () => {
  it('a literal segment holding regex characters matches itself, and only itself', () => {
    expect(matchRoute('GET', '/api/v2/openapi.json')).toMatchObject({ kind: 'route', route: { method: 'GET', path: '/api/v2/openapi.json' }, params: {} });
    for (const path of ['/api/v2/openapiXjson', '/api/v2/openapi.jsonx', '/api/v2/openapi.json/', '/x/api/v2/openapi.json', '/api/v2/openapi']) {
      expect(matchRoute('GET', path), path).toEqual({ kind: 'not_found' });
    }
  });

  it('matches the whole path, not a prefix or a suffix of it', () => {
    expect(matchRoute('GET', '/api/v2/members/mbr_1/points/extra')).toEqual({ kind: 'not_found' });
    expect(matchRoute('GET', '/prefix/api/v2/members')).toEqual({ kind: 'not_found' });
    expect(matchRoute('GET', 'api/v2/members')).toEqual({ kind: 'not_found' });
  });
});

describe('route matching: parameters', () => {
  it('each parameter takes exactly one whole segment, by name', () => {
    expect(matchRoute('POST', '/api/v2/webhooks/whe_1/deliveries/dlv_22/replay')).toMatchObject({
      kind: 'route',
      route: { method: 'POST', path: '/api/v2/webhooks/{id}/deliveries/{deliveryId}/replay' },
      params: { id: 'whe_1', deliveryId: 'dlv_22' },
    });
    expect(matchRoute('GET', '/api/v2/objects/repair_job/records/rec_abc')).toMatchObject({
      kind: 'route',
      route: { path: '/api/v2/objects/{type}/records/{recordId}' },
      params: { type: 'repair_job', recordId: 'rec_abc' },
    });
    expect(matchRoute('GET', '/api/v2/members//points')).toEqual({ kind: 'not_found' });
  });

  it('decodes each parameter on its own', () => {
    const m = matchRoute('DELETE', '/api/v2/members/mbr%5F1/tags/vip%20gold%2Fplus');
    expect(m).toMatchObject({ kind: 'route', route: { path: '/api/v2/members/{id}/tags/{tagKey}' } });
    if (m.kind !== 'route') throw new Error('unreachable');
    expect(m.params).toEqual({ id: 'mbr_1', tagKey: 'vip gold/plus' });
  });
});

describe('route matching: methods', () => {
  it('the method picks among the templates a path matches', () => {
    expect(matchRoute('POST', '/api/v2/members/batch')).toMatchObject({ kind: 'route', route: { method: 'POST', path: '/api/v2/members/batch' }, params: {} });
    expect(matchRoute('GET', '/api/v2/members/batch')).toMatchObject({
      kind: 'route',
      route: { method: 'GET', path: '/api/v2/members/{id}' },
      params: { id: 'batch' },
    });
    expect(matchRoute('PATCH', '/api/v2/members/batch')).toMatchObject({ kind: 'route', route: { method: 'PATCH', path: '/api/v2/members/{id}' } });
  });

  it('405 lists the methods of every matching template, sorted', () => {
    expect(matchRoute('PUT', '/api/v2/members/batch')).toEqual({ kind: 'method_not_allowed', allow: ['GET', 'PATCH', 'POST'] });
    expect(matchRoute('DELETE', '/api/v2/openapi.json')).toEqual({ kind: 'method_not_allowed', allow: ['GET'] });
    expect(matchRoute('get', '/api/v2/openapi.json')).toEqual({ kind: 'method_not_allowed', allow: ['GET'] }); // methods are upper-case
  });
});

describe('route matching: precedence and templates (on a table of its own)', () => {
  const table = [
    { method: 'GET', path: '/things/{id}' },
    { method: 'GET', path: '/things/special' },
    { method: 'GET', path: '/things/{id}/parts/{partId}' },
    { method: 'GET', path: '/things/special/parts/{partId}' },
    { method: 'GET', path: '/files/x{id}' },
    { method: 'GET', path: '/docs/{name}.json' },
  ] as const;

  it('a literal segment wins over a parameter, whatever the order of the table', () => {
    for (const order of [table, [...table].reverse()]) {
      const match = routeMatcher(order);
      expect(match('GET', '/things/special')).toEqual({ kind: 'route', route: { method: 'GET', path: '/things/special' }, params: {} });
      expect(match('GET', '/things/other')).toEqual({ kind: 'route', route: { method: 'GET', path: '/things/{id}' }, params: { id: 'other' } });
      expect(match('GET', '/things/special/parts/p1')).toEqual({
        kind: 'route',
        route: { method: 'GET', path: '/things/special/parts/{partId}' },
        params: { partId: 'p1' },
      });
      expect(match('GET', '/things/t1/parts/p1')).toMatchObject({ route: { path: '/things/{id}/parts/{partId}' }, params: { id: 't1', partId: 'p1' } });
    }
  });

  it('only a whole segment in braces is a parameter; anything else is literal text', () => {
    const match = routeMatcher(table);
    expect(match('GET', '/files/x{id}')).toEqual({ kind: 'route', route: { method: 'GET', path: '/files/x{id}' }, params: {} });
    expect(match('GET', '/files/x42')).toEqual({ kind: 'not_found' });
    expect(match('GET', '/files/42')).toEqual({ kind: 'not_found' });
    expect(match('GET', '/docs/{name}.json')).toMatchObject({ kind: 'route', params: {} });
    expect(match('GET', '/docs/readme')).toEqual({ kind: 'not_found' });
  });
});
