import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { colorsOf, logFormatOf, metricsShownOf, prettyLine, renderPretty } from '../../../../infra/local/log-format';
import { renderStream, runtimeLine } from '../../../../infra/local/log-output';
import { LeanLogFormatter } from '../../../../shared/platform/observability/log-formatter';

const plain = { colors: false };
const at = '2026-03-04T12:03:04.000Z';
/** The clock the renderer shows for `at` in this machine's time zone. */
const clock = (() => {
  const d = new Date(at);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
})();
const ESC = '\u001b[';

/** Captures what a Powertools console writes to stdout/stderr (its Console holds the stream objects). */
function capture(): { lines: () => string[]; restore: () => void } {
  const written: string[] = [];
  const spies = [process.stdout, process.stderr].map((s) =>
    vi.spyOn(s, 'write').mockImplementation((chunk: string | Uint8Array) => (written.push(String(chunk)), true)),
  );
  return {
    lines: () => written.join('').split('\n').filter(Boolean),
    restore: () => {
      for (const s of spies) s.mockRestore();
    },
  };
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

const request = (extra: Record<string, unknown> = {}) => ({
  level: 'INFO',
  message: 'request',
  timestamp: at,
  requestId: 'req_1',
  apiRequestId: 'a-1',
  area: 'orders',
  method: 'POST',
  routeKey: 'POST /api/v2/orders',
  path: '/api/v2/orders',
  status: 201,
  durationMs: 38,
  workspaceId: 'ws_1',
  ...extra,
});

describe('format choice', () => {
  it('pretty on a terminal, JSON when piped; LOG_FORMAT overrides either way; anything else is refused', () => {
    expect(logFormatOf({}, true)).toBe('pretty');
    expect(logFormatOf({}, false)).toBe('json');
    expect(logFormatOf({ LOG_FORMAT: 'json' }, true)).toBe('json');
    expect(logFormatOf({ LOG_FORMAT: 'PRETTY' }, false)).toBe('pretty');
    expect(logFormatOf({ LOG_FORMAT: 'yaml' }, true)).toBeUndefined();
  });

  it('colours only on a terminal, unless NO_COLOR or FORCE_COLOR says otherwise', () => {
    expect(colorsOf({}, true)).toBe(true);
    expect(colorsOf({}, false)).toBe(false);
    expect(colorsOf({ NO_COLOR: '1' }, true)).toBe(false);
    expect(colorsOf({ FORCE_COLOR: '1' }, false)).toBe(true);
    expect(colorsOf({ FORCE_COLOR: '0' }, true)).toBe(false);
  });
});

describe('pretty request lines', () => {
  it('time, method, raw path, status and duration; nothing else', () => {
    expect(renderPretty(request(), plain)).toBe(`${clock} POST /api/v2/orders 201 38ms`);
  });

  it('an error answer adds its code', () => {
    expect(renderPretty(request({ status: 422, durationMs: 4, errorCode: 'VALIDATION_FAILED' }), plain)).toBe(
      `${clock} POST /api/v2/orders 422 4ms VALIDATION_FAILED`,
    );
  });

  it('without a raw path the route key names it', () => {
    const { path: _, ...line } = request({ method: 'GET', routeKey: 'GET /api/v2/stores/{storeId}', status: 200 });
    expect(renderPretty(line, plain)).toBe(`${clock} GET /api/v2/stores/{storeId} 200 38ms`);
  });

  it('colours only when asked: the status by class, the code with it', () => {
    const coloured = renderPretty(request({ status: 503, errorCode: 'SERVICE_UNAVAILABLE' }), { colors: true });
    expect(coloured).toContain(`${ESC}31m503${ESC}0m`);
    expect(coloured).toContain(`${ESC}31mSERVICE_UNAVAILABLE${ESC}0m`);
    expect(renderPretty(request({ status: 201 }), { colors: true })).toContain(`${ESC}32m201${ESC}0m`);
    expect(renderPretty(request({ status: 503, errorCode: 'SERVICE_UNAVAILABLE' }), plain)).not.toContain(ESC);
  });
});

describe('pretty background events', () => {
  const event = (name: string, fields: Record<string, unknown>, level = 'INFO') =>
    renderPretty({ level, message: name, timestamp: at, event: name, ...fields }, plain);

  it.each([
    [
      'webhook.delivered',
      { endpointId: 'ep_1', eventType: 'order.created', attempt: 1, status: 200, durationMs: 38 },
      'webhook.delivered order.created → ep_1 HTTP 200 attempt 1 38ms',
    ],
    [
      'webhook.retry_scheduled',
      { endpointId: 'ep_1', eventType: 'order.created', attempt: 2, status: 503, durationMs: 12, nextAttemptInSeconds: 30 },
      'webhook.retry_scheduled order.created → ep_1 HTTP 503 attempt 2 12ms next in 30s',
    ],
    [
      'webhook.failed',
      { endpointId: 'ep_1', eventType: 'member.updated', attempt: 1, status: 410, durationMs: 9 },
      'webhook.failed member.updated → ep_1 HTTP 410 attempt 1 9ms',
    ],
    ['webhook.dead', { endpointId: 'ep_2', eventType: 'points.changed', attempt: 8 }, 'webhook.dead points.changed → ep_2 attempt 8'],
    ['wallet.push_sent', { platform: 'apple', devices: 3, durationMs: 120 }, 'wallet.push_sent apple 3 devices 120ms'],
    ['wallet.registration_removed', { platform: 'apple', devices: 1 }, 'wallet.registration_removed apple 1 device'],
    [
      'export.run_finished',
      { kind: 'operational', outcome: 'completed', rows: 1200, durationMs: 840 },
      'export.run_finished operational completed 1200 rows 840ms',
    ],
  ])('%s renders the fields present on one line', (name, fields, expected) => {
    expect(event(name, fields)).toBe(`${clock} ${expected}`);
  });

  it('the correlation id comes last; any other event and field render generically', () => {
    expect(event('webhook.delivered', { eventType: 'order.created', correlationId: 'evt_9', status: 200 })).toBe(
      `${clock} webhook.delivered order.created HTTP 200 correlationId=evt_9`,
    );
    expect(event('coupon.pool_refilled', { poolId: 'cp_1', codes: 40, note: 'two words' })).toBe(
      `${clock} coupon.pool_refilled poolId=cp_1 codes=40 note="two words"`,
    );
  });

  it('failures and dead letters are red, retries yellow, the rest cyan', () => {
    const c = (name: string) => renderPretty({ level: 'INFO', message: name, timestamp: at, event: name }, { colors: true });
    expect(c('webhook.dead')).toContain(`${ESC}31mwebhook.dead`);
    expect(c('webhook.failed')).toContain(`${ESC}31mwebhook.failed`);
    expect(c('webhook.retry_scheduled')).toContain(`${ESC}33mwebhook.retry_scheduled`);
    expect(c('wallet.push_sent')).toContain(`${ESC}36mwallet.push_sent`);
  });
});

describe('metrics (EMF) in pretty mode', () => {
  it('a line Powertools Metrics writes becomes one compact line: values with units, dimensions but the service', () => {
    const out = capture();
    const metrics = new Metrics({ namespace: 'LoyaltyPlatform', serviceName: 'loyalty-platform' });
    metrics.addDimension('operation', 'createOrder');
    metrics.addMetric('OrdersRecorded', MetricUnit.Count, 1);
    metrics.addMetric('WebhookDeliveryLatency', MetricUnit.Milliseconds, 38);
    metrics.publishStoredMetrics();
    out.restore();
    const [emf] = out.lines();
    expect(JSON.parse(emf!)._aws.CloudWatchMetrics).toBeDefined();
    expect(prettyLine(emf!, plain)).toMatch(/^\d\d:\d\d:\d\d metric OrdersRecorded=1 WebhookDeliveryLatency=38ms operation=createOrder$/);
  });
});

describe('other lines in pretty mode', () => {
  it('startup and stop steps show their time', () => {
    expect(renderPretty({ level: 'INFO', message: 'DynamoDB Local', timestamp: at, step: 'start', durationMs: 1830 }, plain)).toBe(
      `${clock} ✓ DynamoDB Local 1830ms`,
    );
    expect(renderPretty({ level: 'INFO', message: 'HTTP closed', timestamp: at, step: 'stop', durationMs: 2 }, plain)).toBe(`${clock} ■ HTTP closed 2ms`);
  });

  it('messages: level when not INFO, fields key=value, nested objects and multi-line text below, an error with its stack', () => {
    expect(renderPretty({ level: 'INFO', message: 'Listening on http://127.0.0.1:3000', timestamp: at }, plain)).toBe(
      `${clock} Listening on http://127.0.0.1:3000`,
    );
    expect(
      renderPretty({ level: 'INFO', message: 'Created the demo workspace:', timestamp: at, credentials: { adminEmail: 'a@b.c', apiKey: 'fl_live_x' } }, plain),
    ).toBe(`${clock} Created the demo workspace:\n  adminEmail: a@b.c\n  apiKey: fl_live_x`);
    expect(renderPretty({ level: 'INFO', message: 'mail written', timestamp: at, to: 'a@b.c', text: 'Hello\nToken: t1' }, plain)).toBe(
      `${clock} mail written to=a@b.c\n    Hello\n    Token: t1`,
    );
    const error = { name: 'Error', message: 'boom', stack: 'Error: boom\n    at f (x.ts:1:1)' };
    expect(renderPretty({ level: 'ERROR', message: 'local queue driver: poll failed', timestamp: at, queue: 'webhooks', error }, plain)).toBe(
      `${clock} ERROR local queue driver: poll failed queue=webhooks error="Error: boom"\n    at f (x.ts:1:1)`,
    );
  });

  it('what is not a JSON object passes unchanged', () => {
    for (const text of ['plain words', '{not json', '[1,2]', '']) expect(prettyLine(text, plain)).toBe(text);
  });
});

describe('JSON lines', () => {
  it("the logger writes no noise fields: level, message, timestamp and the line's own fields, as on AWS", () => {
    // No trace here, whatever another file of this worker left in the environment.
    vi.stubEnv('_X_AMZN_TRACE_ID', '');
    const out = capture();
    const logger = new Logger({ serviceName: 'loyalty-orders', logFormatter: new LeanLogFormatter(), sampleRateValue: 0.5 });
    logger.setLogLevel('INFO');
    logger.info('request', { requestId: 'req_1', status: 201 });
    logger.error('unhandled error', { error: new Error('boom') });
    out.restore();
    // With a sample rate the logger may first announce that it samples this run: find the lines by message.
    const lines = out.lines().map((l) => JSON.parse(l));
    const info = lines.find((l) => l.message === 'request');
    const error = lines.find((l) => l.message === 'unhandled error');
    expect(Object.keys(info)).toEqual(['level', 'message', 'timestamp', 'requestId', 'status']);
    expect(info).toMatchObject({ level: 'INFO', message: 'request', requestId: 'req_1', status: 201 });
    expect(error.error).toMatchObject({ name: 'Error', message: 'boom', stack: expect.stringContaining('Error: boom') });
    for (const noise of ['service', 'sampling_rate', 'cold_start', 'xray_trace_id', 'function_name']) expect(error).not.toHaveProperty(noise);
  });

  it('keeps the X-Ray trace id where there is one (on AWS)', () => {
    vi.stubEnv('_X_AMZN_TRACE_ID', 'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1');
    const out = capture();
    const logger = new Logger({ logFormatter: new LeanLogFormatter() });
    logger.setLogLevel('INFO');
    logger.info('request');
    out.restore();
    vi.unstubAllEnvs();
    expect(JSON.parse(out.lines()[0]!).xray_trace_id).toBe('1-5759e988-bd862e3fe1be46a994272793');
  });

  it("the runtime's own lines have the logger's shape", () => {
    const line = JSON.parse(runtimeLine('WARN', 'DynamoDB Local is gone', { error: new Error('x'), pid: 7 }));
    expect(Object.keys(line)).toEqual(['level', 'message', 'timestamp', 'error', 'pid']);
    expect(line.error).toMatchObject({ name: 'Error', message: 'x' });
  });
});

describe('rendering a stream', () => {
  it('renders whole lines as they complete, leaves other text alone, and restores the stream', async () => {
    const { Writable } = await import('node:stream');
    const received: string[] = [];
    const sink = new Writable({ write: (chunk, _, done) => (received.push(String(chunk)), done()) }) as unknown as NodeJS.WriteStream;
    const original = sink.write;
    const undo = renderStream(sink, plain);
    sink.write(JSON.stringify(request({ status: 404, errorCode: 'NOT_FOUND', path: '/nope', method: 'GET', durationMs: 1 })).slice(0, 20));
    expect(received).toEqual([]); // half a line waits for the rest
    sink.write(`${JSON.stringify(request({ status: 404, errorCode: 'NOT_FOUND', path: '/nope', method: 'GET', durationMs: 1 })).slice(20)}\nplain text\n`);
    expect(received.join('')).toBe(`${clock} GET /nope 404 1ms NOT_FOUND\nplain text\n`);
    undo();
    expect(sink.write).toBe(original);
  });
});

describe('metric lines in pretty mode are shown only when asked for', () => {
  const emf = JSON.stringify({
    _aws: {
      Timestamp: Date.parse(at),
      CloudWatchMetrics: [{ Namespace: 'n', Dimensions: [['operation']], Metrics: [{ Name: 'ApiRequests', Unit: 'Count' }] }],
    },
    operation: 'createOrder',
    ApiRequests: 1,
  });

  async function rendered(metrics: boolean | undefined): Promise<string> {
    const { Writable } = await import('node:stream');
    const received: string[] = [];
    const sink = new Writable({ write: (chunk, _, done) => (received.push(String(chunk)), done()) }) as unknown as NodeJS.WriteStream;
    const undo = renderStream(sink, { colors: false, ...(metrics === undefined ? {} : { metrics }) });
    sink.write(`${JSON.stringify(request())}\n${emf}\n`);
    sink.write(emf); // a partial line flushed at the end
    undo();
    return received.join('');
  }

  it('a request line is not followed by its metric line by default', async () => {
    expect(await rendered(undefined)).toBe(`${clock} POST /api/v2/orders 201 38ms\n`);
  });

  it('LOG_METRICS=1 shows them', async () => {
    const out = await rendered(true);
    expect(out.split('\n').filter((l) => l.includes('metric ApiRequests=1'))).toHaveLength(2);
    expect(metricsShownOf({ LOG_METRICS: '1' })).toBe(true);
    expect(metricsShownOf({})).toBe(false);
    expect(metricsShownOf({ LOG_METRICS: '0' })).toBe(false);
  });
});
