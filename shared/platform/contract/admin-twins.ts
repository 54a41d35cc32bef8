import type { AuthKind, Endpoint } from './endpoint';
import type { Permission } from './permissions';

/**
 * Operations that API keys and the console both call: declared once, without credentials, then
 * made into two endpoints each. The API-key endpoint keeps its `/api/v2` path and scope; its twin
 * under `/api/flash` takes an owner or admin session (bearer or the console's cookie + CSRF). The
 * cookie never reaches the API-key path, and both twins run the same handler and domain service.
 */
export type SharedOperation = Omit<Endpoint, 'auth' | 'scope' | 'permission' | 'path'> & { path: `/api/v2/${string}` };

type AdminPath<P> = P extends `/api/v2/${infer R}` ? `/api/flash/${R}` : never;

/** The admin twin's operationId: `listWebhookEndpoints` -> `adminListWebhookEndpoints`. */
export type AdminOperationId<K> = K extends string ? `admin${Capitalize<K>}` : never;

export const adminOperationId = <K extends string>(id: K): AdminOperationId<K> => `admin${id[0]!.toUpperCase()}${id.slice(1)}` as AdminOperationId<K>;

export const adminPathOf = <P extends `/api/v2/${string}`>(path: P): AdminPath<P> => path.replace(/^\/api\/v2\//, '/api/flash/') as AdminPath<P>;

type ApiKeyEndpoints<O, S> = { [K in keyof O]: O[K] & { auth: readonly ['apiKey']; scope: S } };
type AdminEndpoints<O> = {
  [K in keyof O as AdminOperationId<K>]: Omit<O[K], 'path'> & {
    path: AdminPath<O[K] extends { path: infer P } ? P : never>;
    auth: readonly ['adminSession'];
    permission: Permission;
  };
};

/** Each operation as an API-key endpoint (with `scope`) and as its admin-session twin (with `permission`). */
export function withAdminTwins<const O extends Record<string, SharedOperation>, S extends NonNullable<Endpoint['scope']>>(
  operations: O,
  scope: S,
  permission: Permission,
): ApiKeyEndpoints<O, S> & AdminEndpoints<O> {
  const out: Record<string, Endpoint> = {};
  for (const [id, op] of Object.entries(operations)) {
    out[id] = { ...op, auth: ['apiKey'] satisfies AuthKind[], scope };
    out[adminOperationId(id)] = { ...op, path: adminPathOf(op.path), auth: ['adminSession'] satisfies AuthKind[], permission };
  }
  return out as ApiKeyEndpoints<O, S> & AdminEndpoints<O>;
}

/** The same value (a handler, an example) under both operationIds of each twin pair. */
export function twinned<const T extends Record<string, unknown>>(values: T): T & { [K in keyof T as AdminOperationId<K>]: T[K] } {
  const out: Record<string, unknown> = { ...values };
  for (const [id, value] of Object.entries(values)) out[adminOperationId(id)] = value;
  return out as T & { [K in keyof T as AdminOperationId<K>]: T[K] };
}

/** What one operation of `withConsoleTwins` needs: its API key's scope and, where the console calls it too, its session's permission. */
export interface TwinAccess {
  scope: NonNullable<Endpoint['scope']>;
  permission?: Permission;
}

type KeyedEndpoints<O, A> = { [K in keyof O]: O[K] & { auth: readonly ['apiKey']; scope: A[K & keyof A] extends { scope: infer S } ? S : never } };
type ConsoleTwins<O, A> = {
  [K in keyof O as A[K & keyof A] extends { permission: Permission } ? AdminOperationId<K> : never]: Omit<O[K], 'path'> & {
    path: AdminPath<O[K] extends { path: infer P } ? P : never>;
    auth: readonly ['adminSession'];
    permission: Permission;
  };
};

/**
 * As `withAdminTwins`, for an area whose operations need a scope and a permission each: every
 * operation is an API-key endpoint with its scope, and the ones given a permission also get their
 * `/api/flash` twin, which the same handler serves (`twinned`).
 */
export function withConsoleTwins<const O extends Record<string, SharedOperation>, const A extends { [K in keyof O]: TwinAccess }>(
  operations: O,
  access: A,
): KeyedEndpoints<O, A> & ConsoleTwins<O, A> {
  const out: Record<string, Endpoint> = {};
  for (const [id, op] of Object.entries(operations)) {
    const { scope, permission } = access[id as keyof O];
    out[id] = { ...op, auth: ['apiKey'] satisfies AuthKind[], scope };
    if (permission) out[adminOperationId(id)] = { ...op, path: adminPathOf(op.path), auth: ['adminSession'] satisfies AuthKind[], permission };
  }
  return out as KeyedEndpoints<O, A> & ConsoleTwins<O, A>;
}
