import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { queueWithDeadLetter } from './queue-with-dead-letter';
import { Construct } from 'constructs';
import { queueDeclarations } from '../../../shared/platform/consumers/queues';
import { config } from '../../../shared/platform/config';
import { alarmDescription } from './runbook';

/** Logical IDs of the wallet push queues, pinned: a replaced queue would lose the pushes waiting in it. */
export const WALLET_PUSH_QUEUE_LOGICAL_ID = 'WalletPushQueue';
export const WALLET_PUSH_DEAD_LETTER_QUEUE_LOGICAL_ID = 'WalletPushDeadLetterQueue';
/** Pinned too: replacing the secret would drop the credentials operators put in it. */
export const WALLET_SECRET_LOGICAL_ID = 'WalletCredentialsSecret';

/** A push older than this is no use to anyone (devices fetch the latest pass anyway). */
export const WALLET_PUSH_RETENTION = Duration.days(config.queues.retentionDays.walletPushes);
export const WALLET_PUSH_DEAD_LETTER_RETENTION = Duration.days(config.queues.retentionDays.walletPushDeadLetters);

/**
 * Wallet cards: the push queue between the wallet changes consumer (table stream) and the push
 * worker, its dead-letter queue with an alarm, and the Secrets Manager secret holding the wallet
 * credentials (filled by operators: see docs/infra.md; until then both platforms answer
 * WALLET_NOT_CONFIGURED). All of it holds state, so it lives in the root stack; the consumers are
 * rows of the consumer table and the alarm is `walletAlarms`, both in the pipelines' stack.
 */
export class Wallet extends Construct {
  readonly pushQueue: sqs.Queue;
  readonly pushDeadLetterQueue: sqs.Queue;
  readonly secret: secretsmanager.Secret;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const declared = queueDeclarations();
    const redrive = declared.walletPushes.redrive!;

    const pair = queueWithDeadLetter(this, {
      queue: {
        id: 'PushQueue',
        logicalId: WALLET_PUSH_QUEUE_LOGICAL_ID,
        retention: WALLET_PUSH_RETENTION,
        visibilitySeconds: declared.walletPushes.visibilitySeconds,
      },
      deadLetter: {
        id: 'PushDeadLetterQueue',
        logicalId: WALLET_PUSH_DEAD_LETTER_QUEUE_LOGICAL_ID,
        retention: WALLET_PUSH_DEAD_LETTER_RETENTION,
        visibilitySeconds: declared.walletPushDeadLetters.visibilitySeconds,
        whyNoRedrive: 'This is the dead-letter queue of the wallet push queue: what lands here stays for operators (14 days, alarmed).',
      },
      maxReceiveCount: redrive.maxReceiveCount,
    });
    this.pushQueue = pair.queue;
    this.pushDeadLetterQueue = pair.deadLetter;

    // A JSON document `{ apple?: {...}, google?: {...} }`; the generated placeholder configures nothing.
    this.secret = new secretsmanager.Secret(this, 'Credentials', {
      description: 'Loyalty platform: wallet credentials (Apple pass type certificate and key, WWDR, APNs key; Google service account). See docs/infra.md',
      generateSecretString: { secretStringTemplate: '{}', generateStringKey: 'placeholder', excludePunctuation: true },
      removalPolicy: RemovalPolicy.RETAIN,
    });
    (this.secret.node.defaultChild as secretsmanager.CfnSecret).overrideLogicalId(WALLET_SECRET_LOGICAL_ID);
    Validations.of(this.secret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: 'Certificates and keys issued by Apple and Google: they are renewed in their consoles and pasted in, not rotated by a Lambda',
    });
  }

  get queues() {
    return { walletPushes: this.pushQueue, walletPushDeadLetters: this.pushDeadLetterQueue };
  }
}

/** The wallet pipeline's alarm, built in `scope` (the pipelines' stack); every alarm notifies the alarm topic. */
export function walletAlarms(scope: Construct, pushDeadLetterQueue: sqs.IQueue): { readonly pushDeadLetters: cloudwatch.Alarm } {
  return {
    pushDeadLetters: new cloudwatch.Alarm(scope, 'PushDeadLetterAlarm', {
      alarmDescription: alarmDescription(
        'Wallet push DLQ has messages: pushes to APNs or updates of Google Wallet objects failed every attempt. Check the wallet-push logs.',
        'deadLetterNotEmpty',
      ),
      metric: pushDeadLetterQueue.metricApproximateNumberOfMessagesVisible({
        period: Duration.minutes(config.alarms.deadLetterPeriodMinutes),
        statistic: cloudwatch.Stats.MAXIMUM,
      }),
      threshold: 0,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    }),
  };
}
