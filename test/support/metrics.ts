/** One metric of an EMF document (as `shared/platform/observability/metrics.ts` emits them: one metric each). */
export interface EmittedMetric {
  namespace: string;
  name: string;
  unit: string;
  value: number;
  /** Every declared dimension with its value (`service` included). */
  dimensions: Record<string, string>;
}

interface EmfDocument {
  _aws: { CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[] };
  [key: string]: unknown;
}

/** Reads the one metric of an EMF document, with the dimensions its directive declares. */
export function metricOf(doc: Record<string, unknown>): EmittedMetric {
  const emf = doc as EmfDocument;
  const directive = emf._aws.CloudWatchMetrics[0]!;
  const metric = directive.Metrics[0]!;
  const names = directive.Dimensions[0] ?? [];
  return {
    namespace: directive.Namespace,
    name: metric.Name,
    unit: metric.Unit,
    value: emf[metric.Name] as number,
    dimensions: Object.fromEntries(names.map((n) => [n, String(emf[n])])),
  };
}
