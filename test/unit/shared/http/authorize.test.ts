import { describe, expect, it } from 'vitest';
import { routes, type RouteDef } from '../../../../shared/http/declarations';
import type { Principal } from '../../../../shared/platform/contract/principal';
import type { AppError } from '../../../../shared/platform/errors';
import { authorizationOf, authorize } from '../../../../shared/http/authenticate';
import type { HttpEvent } from '../../../../shared/http/types';
import type { Permission } from '../../../../shared/platform/contract/permissions';
import type { Role } from '../../../../shared/platform/contract/roles';

const session = (role: Role): Principal => ({
  kind: 'session',
  workspaceId: 'ws_1',
  userId: 'usr_1',
  role,
  tokenHash: 'h',
  expiresAt: 0,
});
const key = (scopes: string[]): Principal => ({ kind: 'apiKey', workspaceId: 'ws_1', keyId: 'key_1', scopes: scopes as never });

const outcome = (route: RouteDef, p: Principal) => {
  try {
    authorize(route, p);
    return 'ok';
  } catch (err) {
    return (err as AppError).status;
  }
};

const route = (auth: RouteDef['auth'], scope?: RouteDef['scope'], permission?: Permission): RouteDef => ({
  method: 'GET',
  path: '/x',
  area: 'auth',
  auth,
  scope,
  permission,
  operationId: 'x',
  summary: 'x',
  responses: {},
});

describe('authorize (route table auth kinds, roles and scopes)', () => {
  it('adminSession admits the roles holding the route permission; the 403 names it', () => {
    const r = route(['adminSession'], undefined, 'members:adjust_points');
    expect(outcome(r, session('member'))).toBe(403);
    expect(outcome(r, session('admin'))).toBe('ok');
    expect(outcome(r, session('owner'))).toBe('ok');
    expect(outcome(r, session('support'))).toBe('ok');
    for (const role of ['marketer', 'analyst', 'developer'] as const) expect(outcome(r, session(role)), role).toBe(403);
    expect(() => authorize(r, session('analyst'))).toThrow(
      expect.objectContaining({
        status: 403,
        message: expect.stringContaining('Your role (analyst) lacks the permission members:adjust_points'),
        details: [{ in: 'header', field: 'authorization', message: 'missing permission members:adjust_points' }],
      }),
    );
    expect(outcome(r, key(['api_keys:manage']))).toBe(403);
  });

  it('adminSession without a declared permission admits no session, not even an owner', () => {
    expect(outcome(route(['adminSession']), session('owner'))).toBe(403);
  });

  it('session routes accept every role and refuse API keys', () => {
    const r = route(['session']);
    for (const role of ['owner', 'admin', 'support', 'member'] as const) expect(outcome(r, session(role))).toBe('ok');
    expect(outcome(r, key(['api_keys:manage']))).toBe(403);
  });

  it('apiKey routes need the scope; the 403 names it', () => {
    const r = route(['apiKey'], 'members:read');
    expect(outcome(r, key(['members:read']))).toBe('ok');
    expect(outcome(r, key(['members:write']))).toBe(403);
    expect(() => authorize(r, key([]))).toThrow(expect.objectContaining({ status: 403, message: expect.stringContaining('members:read') }));
    expect(outcome(r, session('owner'))).toBe(403);
  });

  it('the API-key routes take a session holding api_keys:manage or a key with that scope', () => {
    for (const r of routes.filter((x) => x.path.startsWith('/api/v2/api-keys'))) {
      expect(outcome(r, session('owner'))).toBe('ok');
      expect(outcome(r, session('developer'))).toBe('ok');
      expect(outcome(r, session('member'))).toBe(403);
      expect(outcome(r, session('marketer'))).toBe(403);
      expect(outcome(r, key(['api_keys:manage']))).toBe('ok');
      expect(outcome(r, key(['members:read']))).toBe(403);
    }
  });
});

describe('authorizationOf (one Authorization header)', () => {
  const of = (authorization: string | undefined) => authorizationOf({ headers: authorization === undefined ? {} : { authorization } } as unknown as HttpEvent);
  const refused = (authorization: string) => {
    try {
      of(authorization);
    } catch (error) {
      return (error as AppError).code;
    }
    return undefined;
  };

  it('refuses several headers joined with commas (a comma, then another scheme and credential), with or without a space', () => {
    for (const joined of [
      'Bearer a,Bearer b',
      'Bearer a, Bearer b',
      'ApplePass abc,ApplePass def',
      'Bearer a,\tBasic b',
      'Bearer a,x-y.z+1 b',
      'Bearer a,X b',
    ]) {
      expect(refused(joined), joined).toBe('BAD_REQUEST');
    }
  });

  it('passes a comma inside one credential on as the header it is (the credential check answers 401)', () => {
    for (const one of ['Bearer a,b', 'Bearer a,', 'Bearer ,', 'ApplePass a,b', 'Bearer a, b', 'Bearer a,1 b', 'Bearer a,-x b', 'Bearer a,b ']) {
      expect(of(one), one).toBe(one);
    }
    expect(of(undefined)).toBeUndefined();
    expect(of('Bearer fl_live_x')).toBe('Bearer fl_live_x');
  });
});
