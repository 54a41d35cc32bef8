import { afterEach, describe, expect, it, vi } from 'vitest';
import { reportRunFinished } from '../../../../../shared/exports/run-finished';
import type { ExportJobRecord } from '../../../../../shared/exports/entities';
import { reportRefresh } from '../../../../../shared/wallet/push';
import { countEvents } from '../../../../../shared/platform/events/metrics';
import { correlated, correlationId, withCorrelation } from '../../../../../shared/platform/observability/correlation';
import { logger } from '../../../../../shared/platform/observability/logger';
import { businessMetrics, METRICS_NAMESPACE, METRICS_SERVICE } from '../../../../../shared/platform/observability/metric-catalog';
import { captureMetrics, emitMetric } from '../../../../../shared/platform/observability/metrics';
import { traceClient, traced, tracingWanted } from '../../../../../shared/platform/observability/tracing';
import { metricOf } from '../../../../support/metrics';

let stop: (() => void) | undefined;
afterEach(() => {
  stop?.();
  vi.restoreAllMocks();
});
const capture = () => {
  const c = captureMetrics();
  stop = c.stop;
  return () => c.documents().map(metricOf);
};

describe('emitMetric', () => {
  it('writes one EMF document per emission: catalog name and unit, the service and the declared dimensions only', () => {
    const emitted = capture();
    emitMetric('apiRequests', 1, { operation: 'listMembers', outcome: '2xx' });
    emitMetric('exportDuration', 1234);
    expect(emitted()).toEqual([
      {
        namespace: METRICS_NAMESPACE,
        name: 'ApiRequests',
        unit: 'Count',
        value: 1,
        dimensions: { service: METRICS_SERVICE, operation: 'listMembers', outcome: '2xx' },
      },
      { namespace: METRICS_NAMESPACE, name: 'ExportDuration', unit: 'Milliseconds', value: 1234, dimensions: { service: METRICS_SERVICE } },
    ]);
  });

  it('goes to stdout as one JSON line, as on Lambda (CloudWatch reads EMF from the log)', () => {
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    emitMetric('auditWrites', 1);
    expect(write).toHaveBeenCalledTimes(1);
    const line = String(write.mock.calls[0]![0]);
    expect(line.endsWith('\n')).toBe(true);
    expect(metricOf(JSON.parse(line))).toMatchObject({ name: 'AuditWrites', value: 1, dimensions: { service: METRICS_SERVICE } });
  });

  it('keeps no dimension state between emissions made concurrently', async () => {
    const emitted = capture();
    await Promise.all(
      ['2xx', '4xx', '5xx'].map(async (outcome, i) => {
        await new Promise((r) => setTimeout(r, 3 - i));
        emitMetric('apiRequests', 1, { operation: `op${i}`, outcome });
      }),
    );
    const dims = emitted().map((m) => m.dimensions);
    expect(dims).toHaveLength(3);
    for (const d of dims) expect(Object.keys(d).sort()).toEqual(['operation', 'outcome', 'service']);
    expect(dims.map((d) => `${d.operation}:${d.outcome}`).sort()).toEqual(['op0:2xx', 'op1:4xx', 'op2:5xx']);
  });

  it('starts every emission clean, even after one that failed half-way', () => {
    const failing = captureMetrics();
    const throwing = vi.spyOn(JSON, 'stringify').mockImplementationOnce(() => {
      throw new Error('boom');
    });
    expect(() => emitMetric('apiRequests', 1, { operation: 'failed', outcome: '5xx' })).not.toThrow();
    throwing.mockRestore();
    failing.stop();
    const emitted = capture();
    emitMetric('exportDuration', 7);
    expect(emitted()).toEqual([
      { namespace: METRICS_NAMESPACE, name: 'ExportDuration', unit: 'Milliseconds', value: 7, dimensions: { service: METRICS_SERVICE } },
    ]);
  });

  it('declares no dimension that could name a workspace, member or endpoint', () => {
    for (const m of Object.values(businessMetrics)) {
      for (const d of ('dimensions' in m ? m.dimensions : []) as readonly string[]) expect(d).not.toMatch(/workspace|member|endpoint|id$/i);
    }
  });
});

describe('countEvents', () => {
  it('counts orders, refunds and coupons from the events of one committed transaction, each metric once', () => {
    const emitted = capture();
    countEvents([
      { type: 'order.created' },
      { type: 'loyalty.points_earned' },
      { type: 'coupon.issued' },
      { type: 'coupon.issued' },
      { type: 'member.created' },
    ]);
    expect(emitted().map((m) => [m.name, m.value])).toEqual([
      ['OrdersRecorded', 1],
      ['CouponsIssued', 2],
    ]);
  });
});

describe('correlation id', () => {
  it('is the id of the scope the work runs in, also across awaits, and none outside', async () => {
    expect(correlationId()).toBeUndefined();
    expect(correlated()).toEqual({});
    const seen = await Promise.all(
      ['req-a', 'req-b'].map((id) =>
        withCorrelation(id, async () => {
          await new Promise((r) => setTimeout(r, id === 'req-a' ? 5 : 1));
          return correlationId();
        }),
      ),
    );
    expect(seen).toEqual(['req-a', 'req-b']);
    expect(withCorrelation('req-c', () => correlated())).toEqual({ correlationId: 'req-c' });
    expect(withCorrelation(undefined, () => correlationId())).toBeUndefined();
  });
});

describe('wallet push report', () => {
  it('one wallet.push_sent line and metric per platform that sent, one for removed registrations, each with the correlation id', () => {
    const info = vi.spyOn(logger, 'info');
    const emitted = capture();
    reportRefresh({ workspaceId: 'ws_1', memberId: 'mbr_1', requestId: 'req-w' }, { pushed: 2, patched: 1, removed: 1, retry: false });
    expect(emitted().map((m) => [m.name, m.value])).toEqual([
      ['WalletPushesSent', 2],
      ['WalletPushesSent', 1],
      ['WalletRegistrationsRemoved', 1],
    ]);
    expect(info.mock.calls.map(([msg, d]) => [msg, d])).toEqual([
      ['wallet.push_sent', expect.objectContaining({ event: 'wallet.push_sent', correlationId: 'req-w', platform: 'apple', devices: 2 })],
      ['wallet.push_sent', expect.objectContaining({ event: 'wallet.push_sent', correlationId: 'req-w', platform: 'google', devices: 1 })],
      ['wallet.registration_removed', expect.objectContaining({ event: 'wallet.registration_removed', correlationId: 'req-w', devices: 1 })],
    ]);
  });

  it('nothing when nothing was sent', () => {
    const emitted = capture();
    reportRefresh({ workspaceId: 'ws_1', memberId: 'mbr_1' }, { pushed: 0, patched: 0, removed: 0, retry: true });
    expect(emitted()).toEqual([]);
  });
});

describe('export run report', () => {
  const job = (over: Partial<ExportJobRecord>) =>
    ({
      id: 'exp_1',
      workspaceId: 'ws_1',
      kind: 'operational',
      status: 'completed',
      createdAt: '2026-11-01T10:00:00.000Z',
      completedAt: '2026-11-01T10:00:02.500Z',
      rowCount: 42,
      ...over,
    }) as ExportJobRecord;

  it('a completed run: ExportRuns{completed}, its rows and duration, and export.run_finished', () => {
    const info = vi.spyOn(logger, 'info');
    const emitted = capture();
    reportRunFinished(job({}));
    expect(emitted().map((m) => [m.name, m.value, m.dimensions])).toEqual([
      ['ExportRuns', 1, { service: METRICS_SERVICE, outcome: 'completed' }],
      ['ExportRows', 42, { service: METRICS_SERVICE }],
      ['ExportDuration', 2500, { service: METRICS_SERVICE }],
    ]);
    expect(info).toHaveBeenCalledWith(
      'export.run_finished',
      expect.objectContaining({ event: 'export.run_finished', kind: 'operational', outcome: 'completed', rows: 42, durationMs: 2500 }),
    );
  });

  it('a failed run: ExportRuns{failed} and its duration, no rows', () => {
    const emitted = capture();
    reportRunFinished(job({ status: 'failed', rowCount: null }));
    expect(emitted().map((m) => [m.name, m.dimensions.outcome ?? m.value])).toEqual([
      ['ExportRuns', 'failed'],
      ['ExportDuration', 2500],
    ]);
  });
});

describe('tracing', () => {
  it('is off outside Lambda and when POWERTOOLS_TRACE_ENABLED=false', () => {
    expect(tracingWanted({})).toBe(false);
    expect(tracingWanted({ AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x' })).toBe(true);
    expect(tracingWanted({ AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x', POWERTOOLS_TRACE_ENABLED: 'false' })).toBe(false);
    expect(tracingWanted({ AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x', AWS_SAM_LOCAL: 'true' })).toBe(false);
  });

  it('when off, a traced handler is the handler and a client is returned as is', async () => {
    const client = { send: () => undefined };
    expect(traceClient(client)).toBe(client);
    const handler = traced(async (event: { n: number }, context?: { functionName: string }) => ({ n: event.n + 1, fn: context?.functionName }));
    expect(await handler({ n: 1 }, { functionName: 'f' })).toEqual({ n: 2, fn: 'f' });
    await expect(traced(async () => Promise.reject(new Error('boom')))({})).rejects.toThrow('boom');
  });
});
