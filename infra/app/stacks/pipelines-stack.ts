import { NestedStack, type NestedStackProps } from 'aws-cdk-lib';
import type * as nodejs from 'aws-cdk-lib/aws-lambda-nodejs';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { Consumers } from '../constructs/consumers';
import { walletAlarms, type Wallet } from '../constructs/wallet';
import { type WebhookAlarms, webhookAlarms, type Webhooks } from '../constructs/webhooks';
import { buildConsumers, consumerRowsOf } from './consumer-stacks';
import type { PlatformResources } from './shared-props';

export interface PipelinesStackProps extends NestedStackProps {
  readonly resources: PlatformResources;
  /** The webhook and wallet queues (root stack). */
  readonly webhooks: Webhooks;
  readonly wallet: Wallet;
  /** Where failed scheduled runs go (the program's due-work schedule is one of these consumers). */
  readonly scheduleFailureQueue?: sqs.IQueue;
}

/**
 * Capability "webhooks and wallet pipelines": the consumers of the table stream and the queues
 * (every row of the consumer table but the exports', the program's due-work schedule included),
 * and the pipelines' own alarms.
 */
export class PipelinesStack extends NestedStack {
  readonly consumers: Consumers;
  readonly webhookAlarms: WebhookAlarms;
  readonly walletAlarms: ReturnType<typeof walletAlarms>;

  constructor(scope: Construct, id: string, props: PipelinesStackProps) {
    super(scope, id, { description: 'Loyalty platform: webhook and wallet pipelines', ...props });
    // Construct id "Webhooks", as before the split: the functions keep their logical IDs.
    this.consumers = buildConsumers(this, 'Webhooks', consumerRowsOf('pipelines'), props.resources, props.scheduleFailureQueue);
    this.webhookAlarms = webhookAlarms(this.consumers, props.webhooks, this.fanout);
    this.walletAlarms = walletAlarms(new Construct(this, 'Wallet'), props.wallet.pushDeadLetterQueue);
  }

  private pipeline(name: string): nodejs.NodejsFunction {
    const fn = this.consumers.functions[name];
    if (!fn) throw new Error(`the webhook pipeline needs the consumer ${name}`);
    return fn;
  }

  /** Table stream consumer: one delivery message per subscribed endpoint and outbox event. */
  get fanout(): nodejs.NodejsFunction {
    return this.pipeline('webhook-fanout');
  }

  /** Delivery queue consumer: calls the endpoint, schedules retries by changing visibility. */
  get worker(): nodejs.NodejsFunction {
    return this.pipeline('webhook-worker');
  }

  /** DLQ consumer: marks deliveries dead. */
  get deadLetterConsumer(): nodejs.NodejsFunction {
    return this.pipeline('webhook-dlq');
  }
}
