import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { config } from '../../shared/platform/config';

/** The Lambda context a local invocation gets: same shape, same time budget as in AWS. */
export function lambdaContext(functionName: string, timeoutSeconds: number = config.lambda.timeoutSeconds): Context {
  const deadline = Date.now() + timeoutSeconds * 1000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: String(config.lambda.memoryMiB),
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/**
 * Stops a polling loop: waits for in-flight work up to `graceMs`, then abandons it (a crashed Lambda
 * does the same; at-least-once sources hand the work out again). Returns whether it had to abandon.
 */
export async function settleWithin(work: Promise<unknown>, graceMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), graceMs)));
  const outcome = await Promise.race([work.then(() => 'done' as const), timeout]);
  clearTimeout(timer);
  return outcome === 'timeout';
}

/** Resolves after `ms`, or at once when `signal` aborts (idle polling loops). */
export function nap(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
