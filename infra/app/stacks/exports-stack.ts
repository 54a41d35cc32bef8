import { NestedStack, type NestedStackProps } from 'aws-cdk-lib';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import type { Consumers } from '../constructs/consumers';
import { Exports } from '../constructs/exports';
import { buildConsumers, consumerRowsOf } from './consumer-stacks';
import type { PlatformResources } from './shared-props';

export interface ExportsStackProps extends NestedStackProps {
  readonly resources: PlatformResources;
  /** Where failed scheduled runs go (root stack). */
  readonly scheduleFailureQueue?: sqs.IQueue;
}

/**
 * Capability "exports": the export workflow's Task functions and the schedules' tick (the consumer
 * table's export rows), the state machine and its alarm. The bucket stays in the root stack.
 */
export class ExportsStack extends NestedStack {
  readonly consumers: Consumers;
  readonly exports: Exports;
  /** The import workflow: the same construct on its own ASL file. */
  readonly imports: Exports;

  constructor(scope: Construct, id: string, props: ExportsStackProps) {
    super(scope, id, { description: 'Loyalty platform: data exports (workflow, task functions, schedules)', ...props });
    // Construct id "Webhooks", as before the split: the functions keep their logical IDs.
    this.consumers = buildConsumers(this, 'Webhooks', consumerRowsOf('exports'), props.resources, props.scheduleFailureQueue);
    this.exports = new Exports(this, 'Exports', { tasks: this.consumers.workflowTasks.export ?? {} });
    this.imports = new Exports(this, 'Imports', { workflow: 'import', tasks: this.consumers.workflowTasks.import ?? {} });
    for (const row of consumerRowsOf('exports')) {
      this.exports.grant(this.consumers.functions[row.name]!, row.access);
      this.imports.grant(this.consumers.functions[row.name]!, row.access);
    }
  }
}
