import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { businessMetrics, METRICS_NAMESPACE, METRICS_SERVICE, type BusinessMetricKey } from './metric-catalog';

type Metric<K extends BusinessMetricKey> = (typeof businessMetrics)[K];
type DimensionNames<K extends BusinessMetricKey> = Metric<K> extends { dimensions: readonly (infer D extends string)[] } ? D : never;
/** Exactly the dimensions the catalog declares for the metric (none for most). */
export type DimensionsOf<K extends BusinessMetricKey> = [DimensionNames<K>] extends [never] ? Record<string, never> : Record<DimensionNames<K>, string>;

const UNITS = { Count: MetricUnit.Count, Milliseconds: MetricUnit.Milliseconds } as const;

/** Where an EMF document goes: one JSON line on stdout, as Powertools writes it (CloudWatch parses it from the log). */
export type MetricSink = (emf: string) => void;

const stdoutSink: MetricSink = (emf) => {
  process.stdout.write(`${emf}\n`);
};

let sink: MetricSink = stdoutSink;

/**
 * The one Metrics instance of the process. Building one per emission cost more than the emission
 * (it reads the environment and creates its own Console each time). Sharing it is safe because an
 * emission is synchronous from its first dimension to `clearMetrics`: concurrent requests of the
 * local runtime cannot interleave inside it, so no dimension state leaks between them.
 */
let shared: Metrics | undefined;

/**
 * Emits one business metric of the catalog, by key, as its own EMF document (Powertools'
 * serialisation, namespace `METRICS_NAMESPACE`, `service` = `METRICS_SERVICE` plus the metric's
 * declared dimensions). Call it after the write it counts is committed. A metric never fails the
 * work it counts.
 */
export function emitMetric<K extends BusinessMetricKey>(key: K, value: number, ...dims: [DimensionNames<K>] extends [never] ? [] : [DimensionsOf<K>]): void {
  const metric: Metric<K> = businessMetrics[key];
  if (process.env.POWERTOOLS_METRICS_DISABLED === 'true') return;
  try {
    const metrics = (shared ??= new Metrics({ namespace: METRICS_NAMESPACE, serviceName: METRICS_SERVICE }));
    const dimensions = (dims[0] ?? {}) as Record<string, string>;
    const declared = 'dimensions' in metric ? (metric.dimensions as readonly string[]) : [];
    for (const name of declared) metrics.addDimension(name, dimensions[name] ?? 'unknown');
    metrics.addMetric(metric.name, UNITS[metric.unit], value);
    sink(JSON.stringify(metrics.serializeMetrics()));
  } catch {
    // Counting is best effort; the business write has already happened.
  } finally {
    // The next emission starts from the service dimension alone, whatever happened to this one.
    shared?.clearMetrics();
    shared?.clearDimensions();
  }
}

/**
 * Test seam: collects the EMF documents emitted until the returned `stop` is called. The documents
 * are the real wire format; only their destination changes.
 */
export function captureMetrics(): { documents: () => Record<string, unknown>[]; stop: () => void } {
  const captured: string[] = [];
  const previous = sink;
  sink = (emf) => captured.push(emf);
  return {
    documents: () => captured.map((c) => JSON.parse(c) as Record<string, unknown>),
    stop: () => {
      sink = previous;
    },
  };
}
