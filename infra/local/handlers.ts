import type { Context } from 'aws-lambda';
import { AREAS, type Area, routes } from '../../shared/http/declarations';
import { buildOpenApiDocument } from '../../shared/http/openapi';
import { serveDocumentFromSources } from '../../shared/http/openapi-file';
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

// Lambda's system function reads the document from the file rendered when it is bundled; here it is built from the sources.
serveDocumentFromSources({ document: buildOpenApiDocument, routes });

/** The same handler modules Lambda runs, one per declared area (`functions/<area>/handler.ts`). */
export const areaHandlers = Object.fromEntries(AREAS.map((area) => [area, lazy<HttpHandler>(() => import(`../../functions/${area}/handler.ts`))])) as Record<
  Area,
  HttpHandler
>;
