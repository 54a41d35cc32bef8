import { NestedStack, type NestedStackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { Observability, type ObservabilityProps } from '../constructs/observability';

export interface ObservabilityStackProps extends NestedStackProps {
  readonly observability: ObservabilityProps;
}

/** Capability "observability": the operators' dashboard and the platform-wide alarms. */
export class ObservabilityStack extends NestedStack {
  readonly observability: Observability;

  constructor(scope: Construct, id: string, props: ObservabilityStackProps) {
    super(scope, id, { description: 'Loyalty platform: dashboard and alarms', ...props });
    this.observability = new Observability(this, 'Observability', props.observability);
  }
}
