import { SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { activeTracer, loadTracer, traceClient, traced } from '../../../../../shared/platform/observability/tracing';

/**
 * Tracing as it runs in Lambda (`AWS_EXECUTION_ENV` set): the tracer is loaded on the first traced
 * invocation and captures AWS SDK clients. No X-Ray daemon is needed: segments without one are
 * dropped by the SDK (its context-missing strategy logs), which is all this process can offer.
 */

const saved = { ...process.env };
beforeAll(() => {
  Object.assign(process.env, { AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x', AWS_XRAY_CONTEXT_MISSING: 'IGNORE_ERROR', POWERTOOLS_TRACE_ENABLED: 'true' });
});
afterAll(() => {
  process.env = saved;
  // The loaded tracer is module state: where files share one module graph (the mutation runs), the
  // next file must not find it.
  vi.resetModules();
});

describe('tracing in Lambda', () => {
  it('loads the tracer on the first traced invocation, runs the handler, and captures SDK clients', async () => {
    expect(activeTracer()).toBeUndefined();
    const handler = traced(async (event: { n: number }, _context?: { functionName: string }) => event.n * 2);
    expect(await handler({ n: 21 }, { functionName: 'loyalty-test' })).toBe(42);
    await loadTracer();
    expect(activeTracer()).toBeDefined();
    const client = new SQSClient({ region: 'eu-west-1' });
    const before = client.middlewareStack.identify().length;
    traceClient(client);
    expect(client.middlewareStack.identify().length).toBeGreaterThan(before);
    await expect(
      traced(async (_event: object, _context?: { functionName: string }) => Promise.reject(new Error('boom')))({}, { functionName: 'loyalty-test' }),
    ).rejects.toThrow('boom');
  });
});
