import { Tracer } from '@aws-lambda-powertools/tracer';
import type { Context } from 'aws-lambda';

/**
 * X-Ray tracing through Powertools, one tracer per process. It is on only inside Lambda (the
 * Tracer turns itself off where `AWS_EXECUTION_ENV` is unset, i.e. in the local runtime and in
 * tests, and `POWERTOOLS_TRACE_ENABLED=false` turns it off anywhere), so nothing needs X-Ray
 * locally. Outgoing HTTP is not patched: webhook and wallet targets are integrators' URLs, which may
 * carry tokens; AWS SDK calls are traced through `traceClient` instead. Handler responses are never
 * recorded (they hold personal data).
 */
export const tracer = new Tracer({
  serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'loyalty-platform',
  captureHTTPsRequests: false,
});

/** An AWS SDK v3 client whose calls become subsegments (returned unchanged when tracing is off). */
export const traceClient = <T>(client: T): T => tracer.captureAWSv3Client(client);

/**
 * Wraps a Lambda handler in a `## <function>` subsegment with the cold-start and service
 * annotations and the error (if any) as metadata; the result is not recorded.
 */
export function traced<E, R, A extends unknown[]>(handler: (event: E, ...args: A) => Promise<R>): (event: E, ...args: A) => Promise<R> {
  return async (event, ...args) => {
    if (!tracer.isTracingEnabled()) return handler(event, ...args);
    const context = args[0] as Partial<Context> | undefined;
    const parent = tracer.getSegment();
    const segment = parent?.addNewSubsegment(`## ${context?.functionName ?? process.env.AWS_LAMBDA_FUNCTION_NAME ?? 'handler'}`);
    if (segment) tracer.setSegment(segment);
    tracer.annotateColdStart();
    tracer.addServiceNameAnnotation();
    try {
      return await handler(event, ...args);
    } catch (error) {
      tracer.addErrorAsMetadata(error as Error);
      throw error;
    } finally {
      if (segment && parent) {
        segment.close();
        tracer.setSegment(parent);
      }
    }
  };
}
