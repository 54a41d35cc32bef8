import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import {
  type BusinessMetric,
  businessMetrics,
  type Capability,
  METRICS_NAMESPACE,
  METRICS_SERVICE,
} from '../../../shared/platform/observability/metric-catalog';

/**
 * Dashboard widgets of the business metrics, derived from the metric catalog
 * (`shared/platform/observability/metric-catalog.ts`): one graph per metric, in the row of its capability.
 */

const PERIOD = Duration.minutes(1);

/** Every metric carries `service`, plus the dimensions the catalog lists for it. */
export const dimensionsOf = (m: BusinessMetric): readonly string[] => ['service', ...(m.dimensions ?? [])];

/** Counts are summed; durations shown as p50 and p99. */
const statsOf = (m: BusinessMetric): readonly string[] => (m.unit === 'Milliseconds' ? ['p50', 'p99'] : ['Sum']);

/**
 * A CloudWatch search over every series of the metric (one per combination of its extra
 * dimensions' values), for metrics with dimensions beyond `service`: the widget finds each value
 * without the dashboard listing them.
 */
export function searchExpression(m: BusinessMetric, stat: string): string {
  const schema = [METRICS_NAMESPACE, ...dimensionsOf(m)].join(',');
  return `SEARCH('{${schema}} MetricName="${m.name}" service="${METRICS_SERVICE}"', '${stat}', ${PERIOD.toSeconds()})`;
}

function lines(m: BusinessMetric): cloudwatch.IMetric[] {
  return statsOf(m).flatMap((stat): cloudwatch.IMetric[] => {
    if (!m.dimensions?.length) {
      return [
        new cloudwatch.Metric({
          namespace: METRICS_NAMESPACE,
          metricName: m.name,
          dimensionsMap: { service: METRICS_SERVICE },
          statistic: stat,
          period: PERIOD,
          label: m.unit === 'Milliseconds' ? stat : m.name,
        }),
      ];
    }
    // The total across every series, then each series.
    return [
      new cloudwatch.MathExpression({ expression: `SUM(${searchExpression(m, stat)})`, usingMetrics: {}, period: PERIOD, label: `${m.name} (all)` }),
      new cloudwatch.SearchExpression({ expression: searchExpression(m, stat), period: PERIOD }),
    ];
  });
}

/** The business metric widgets of one capability row, in catalog order. */
export function businessMetricWidgets(capability: Capability): cloudwatch.GraphWidget[] {
  return Object.values(businessMetrics as Record<string, BusinessMetric>)
    .filter((m) => m.capability === capability)
    .map(
      (m) =>
        new cloudwatch.GraphWidget({
          title: m.unit === 'Milliseconds' ? `${m.name} (ms)` : m.name,
          left: lines(m),
          width: 6,
          height: 6,
        }),
    );
}
