import type { Context } from 'aws-lambda';
import type { Area } from '../../shared/contracts/index';
import type { HttpEvent, HttpResult } from '../../shared/http/types';

/** A middy-wrapped Lambda handler, called the way the Lambda runtime calls it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type HttpHandler = (event: HttpEvent, context: Context & any, opts: { signal: AbortSignal }) => Promise<HttpResult>;

/**
 * A handler module loaded on first use, like a Lambda cold start; a failed load is tried again on
 * the next invocation.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function lazy<F extends (...args: any[]) => Promise<any>>(load: () => Promise<{ handler: F }>): F {
  let loaded: Promise<F> | undefined;
  const get = () =>
    (loaded ??= load().then(
      (m) => m.handler,
      (err: unknown) => {
        loaded = undefined;
        throw err;
      },
    ));
  return ((...args: Parameters<F>) => get().then((h) => h(...args))) as F;
}

/**
 * The same handler modules Lambda runs, one per area. `Record<Area, ...>` makes the compiler insist
 * on an entry for every area.
 */
export const areaHandlers: Record<Area, HttpHandler> = {
  system: lazy(() => import('../../functions/system/handler')),
  auth: lazy(() => import('../../functions/auth/handler')),
  'api-keys': lazy(() => import('../../functions/api-keys/handler')),
  program: lazy(() => import('../../functions/program/handler')),
  stores: lazy(() => import('../../functions/stores/handler')),
  members: lazy(() => import('../../functions/members/handler')),
  orders: lazy(() => import('../../functions/orders/handler')),
  webhooks: lazy(() => import('../../functions/webhooks/handler')),
  objects: lazy(() => import('../../functions/objects/handler')),
  catalog: lazy(() => import('../../functions/catalog/handler')),
  tags: lazy(() => import('../../functions/tags/handler')),
  captures: lazy(() => import('../../functions/captures/handler')),
  coupons: lazy(() => import('../../functions/coupons/handler')),
  ambassador: lazy(() => import('../../functions/ambassador/handler')),
  tracking: lazy(() => import('../../functions/tracking/handler')),
};
