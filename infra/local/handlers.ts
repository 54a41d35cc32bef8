import type { Context } from 'aws-lambda';
import type { Area } from '../routes';
import type { HttpEvent, HttpResult } from '../../shared/http/types';

/** A middy-wrapped Lambda handler, called the way the Lambda runtime calls it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type HttpHandler = (event: HttpEvent, context: Context & any, opts: { signal: AbortSignal }) => Promise<HttpResult>;

/**
 * The same handler modules Lambda runs, one per area, loaded on first use (like a cold start).
 * `Record<Area, ...>` makes the compiler insist on an entry for every area.
 */
const loaders: Record<Area, () => Promise<{ handler: HttpHandler }>> = {
  system: () => import('../../functions/system/handler'),
  auth: () => import('../../functions/auth/handler'),
  'api-keys': () => import('../../functions/api-keys/handler'),
  program: () => import('../../functions/program/handler'),
  stores: () => import('../../functions/stores/handler'),
  members: () => import('../../functions/members/handler'),
  orders: () => import('../../functions/orders/handler'),
  webhooks: () => import('../../functions/webhooks/handler'),
};

const loaded = new Map<Area, Promise<HttpHandler>>();

export function handlerOf(area: Area): Promise<HttpHandler> {
  let h = loaded.get(area);
  if (!h) {
    h = loaders[area]().then((m) => m.handler);
    loaded.set(area, h);
  }
  return h;
}
