import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { CONSUMERS, type ConsumerRow } from '../../../shared/platform/consumers/table';
import { Consumers } from '../constructs/consumers';
import { CONSUMER_CAPABILITY } from '../constructs/dashboard-rows';
import type { PlatformResources } from './shared-props';

/** Rows of the consumer table by the nested stack that builds them: exports' own, and the pipelines (everything else). */
export const consumerRowsOf = (stack: 'exports' | 'pipelines'): readonly ConsumerRow[] =>
  (CONSUMERS as readonly ConsumerRow[]).filter(
    (row) => (CONSUMER_CAPABILITY[row.name as keyof typeof CONSUMER_CAPABILITY] === 'exports') === (stack === 'exports'),
  );

/** The consumers of `rows`, built with the root's resources, each with PUBLIC_BASE_URL and its export bucket access. */
export function buildConsumers(scope: Construct, id: string, rows: readonly ConsumerRow[], r: PlatformResources, scheduleFailureQueue?: sqs.IQueue): Consumers {
  const consumers = new Consumers(scope, id, {
    rows,
    table: r.table,
    mail: r.mail,
    queues: r.queues,
    walletSecret: r.walletSecret,
    secrets: r.secrets,
    ...(scheduleFailureQueue ? { scheduleFailureQueue } : {}),
  });
  for (const row of rows) {
    const fn = consumers.functions[row.name]!;
    fn.addEnvironment('PUBLIC_BASE_URL', r.publicBaseUrl);
    r.exportBucket.grant(fn, row.access);
    r.signingSecretsKey.grant(fn, row.access);
  }
  return consumers;
}
