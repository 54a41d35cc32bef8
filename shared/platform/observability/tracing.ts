import { createRequire } from 'node:module';
import type { Tracer } from '@aws-lambda-powertools/tracer';
import type { Context } from 'aws-lambda';
import { logger } from './logger';

/**
 * X-Ray tracing through Powertools, one tracer per process, on only inside Lambda: where
 * `AWS_EXECUTION_ENV` is unset (the local runtime, tests) or `POWERTOOLS_TRACE_ENABLED=false`,
 * nothing is loaded and nothing needs X-Ray. The Tracer and the X-Ray SDK under it (~120 KiB) are
 * left out of the function bundles (infra/build/bundling/options.ts) and imported on the first traced
 * invocation, from the Powertools layer; without the layer tracing stays off with one warning.
 * Outgoing HTTP is not patched: webhook and wallet targets are integrators' URLs, which may carry
 * tokens; AWS SDK calls are traced through `traceClient`. Handler responses are never recorded
 * (they hold personal data).
 */

let tracer: Tracer | undefined;
let loading: Promise<void> | undefined;

/** Whether this process should trace (the Tracer makes the same checks once loaded). */
export const tracingWanted = (env: NodeJS.ProcessEnv = process.env): boolean =>
  Boolean(env.AWS_EXECUTION_ENV) && !env.AWS_SAM_LOCAL && env.POWERTOOLS_TRACE_ENABLED?.toLowerCase() !== 'false';

/** Loads the tracer once, when tracing is wanted; resolves either way. */
export function loadTracer(): Promise<void> {
  if (!tracingWanted()) return Promise.resolve();
  loading ??= Promise.resolve()
    .then(() => {
      // Required, not imported: CommonJS resolution honours NODE_PATH, which Lambda points at the
      // layers (/opt/nodejs/node_modules); an ES import from the bundle would look only beside it.
      const { Tracer } = createRequire(import.meta.url)('@aws-lambda-powertools/tracer') as typeof import('@aws-lambda-powertools/tracer');
      tracer = new Tracer({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'loyalty-platform', captureHTTPsRequests: false });
    })
    .catch((error: unknown) => logger.warn('tracing is off: @aws-lambda-powertools/tracer could not be loaded', { error: error as Error }));
  return loading;
}

/** The process's tracer once loaded and enabled (undefined locally and in tests). */
export const activeTracer = (): Tracer | undefined => (tracer?.isTracingEnabled() ? tracer : undefined);

/**
 * An AWS SDK v3 client whose calls become subsegments; unchanged when tracing is off. Clients are
 * created inside handlers (on first use), after `traced` has loaded the tracer.
 */
export const traceClient = <T>(client: T): T => activeTracer()?.captureAWSv3Client(client) ?? client;

/**
 * Wraps a Lambda handler in a `## <function>` subsegment with the cold-start and service
 * annotations and the error (if any) as metadata; the result is not recorded.
 */
export function traced<E, R, A extends unknown[]>(handler: (event: E, ...args: A) => Promise<R>): (event: E, ...args: A) => Promise<R> {
  return async (event, ...args) => {
    await loadTracer();
    const t = activeTracer();
    if (!t) return handler(event, ...args);
    const parent = t.getSegment();
    // Lambda always provides the facade segment; without one there is nothing to attach to.
    if (!parent) return handler(event, ...args);
    const context = args[0] as Partial<Context> | undefined;
    const segment = parent.addNewSubsegment(`## ${context?.functionName ?? process.env.AWS_LAMBDA_FUNCTION_NAME ?? 'handler'}`);
    t.setSegment(segment);
    t.annotateColdStart();
    t.addServiceNameAnnotation();
    try {
      return await handler(event, ...args);
    } catch (error) {
      t.addErrorAsMetadata(error as Error);
      throw error;
    } finally {
      segment.close();
      t.setSegment(parent);
    }
  };
}
