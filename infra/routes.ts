import type { Scope } from '../shared/domain/api-keys/scopes';

/**
 * THE route table. CDK creates one API Gateway route per entry, the local server routes from it,
 * the handlers take auth kind and scope from it. Later capabilities add their entries here.
 */

/** How a caller proves who it is (see README "Authentication"). */
export type AuthKind = 'apiKey' | 'session' | 'adminSession' | 'consumer' | 'applePass' | 'public';

/** One Lambda function per area; the folder `functions/<area>/handler.ts` is its entry point. */
export const AREAS = ['system', 'auth', 'api-keys'] as const;
export type Area = (typeof AREAS)[number];

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteDef {
  method: HttpMethod;
  /** API Gateway path template, e.g. `/api/v2/api-keys/{id}`. */
  path: string;
  area: Area;
  /** Accepted credentials, in order of preference. */
  auth: readonly AuthKind[];
  /** Scope an API key needs. Sessions are checked by role instead. */
  scope?: Scope;
  operationId: string;
  summary: string;
}

export const routes: readonly RouteDef[] = [
  // Auth (spec 4.8)
  { method: 'POST', path: '/api/v2/auth/register', area: 'auth', auth: ['public'], operationId: 'register', summary: 'Create a workspace and its owner' },
  { method: 'POST', path: '/api/v2/auth/login', area: 'auth', auth: ['public'], operationId: 'login', summary: 'Start a session' },
  { method: 'GET', path: '/api/v2/auth/profile', area: 'auth', auth: ['session'], operationId: 'getProfile', summary: 'The signed-in user, workspace and session' },
  { method: 'PATCH', path: '/api/v2/auth/profile', area: 'auth', auth: ['session'], operationId: 'updateProfile', summary: 'Change name or e-mail' },
  { method: 'POST', path: '/api/v2/auth/change-password', area: 'auth', auth: ['session'], operationId: 'changePassword', summary: 'Change password; revokes other sessions' },
  { method: 'POST', path: '/api/v2/auth/forgot-password', area: 'auth', auth: ['public'], operationId: 'forgotPassword', summary: 'Mail a single-use reset token' },
  { method: 'POST', path: '/api/v2/auth/reset-password', area: 'auth', auth: ['public'], operationId: 'resetPassword', summary: 'Set a new password with a reset token' },

  // API keys (spec 4.8)
  { method: 'POST', path: '/api/v2/api-keys', area: 'api-keys', auth: ['adminSession', 'apiKey'], scope: 'api_keys:manage', operationId: 'createApiKey', summary: 'Create an API key (plaintext shown once)' },
  { method: 'GET', path: '/api/v2/api-keys', area: 'api-keys', auth: ['adminSession', 'apiKey'], scope: 'api_keys:manage', operationId: 'listApiKeys', summary: 'List API keys' },
  { method: 'DELETE', path: '/api/v2/api-keys/{id}', area: 'api-keys', auth: ['adminSession', 'apiKey'], scope: 'api_keys:manage', operationId: 'revokeApiKey', summary: 'Revoke an API key' },
];

/** API Gateway's route key for an entry, e.g. `GET /api/v2/api-keys`. */
export const routeKey = (r: Pick<RouteDef, 'method' | 'path'>): string => `${r.method} ${r.path}`;

export const routesOfArea = (area: Area): RouteDef[] => routes.filter((r) => r.area === area);
