import { Duration, Validations } from 'aws-cdk-lib';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';

interface QueueSpec {
  /** Construct id (unchanged ids keep the construct paths; the logical ID is pinned anyway). */
  id: string;
  logicalId: string;
  retention: Duration;
  visibilitySeconds: number;
}

/**
 * A work queue and its dead-letter queue, the way every queue of the platform is made: SQS-managed
 * encryption, TLS only, logical IDs pinned (a renamed construct must not replace a queue holding
 * messages), the redrive after `maxReceiveCount` receives, and the dead-letter queue's own
 * "no further redrive" finding acknowledged with its reason.
 */
export function queueWithDeadLetter(
  scope: Construct,
  opts: { queue: QueueSpec; deadLetter: QueueSpec & { whyNoRedrive: string }; maxReceiveCount: number },
): { queue: sqs.Queue; deadLetter: sqs.Queue } {
  const make = (spec: QueueSpec, redrive?: sqs.DeadLetterQueue) => {
    const q = new sqs.Queue(scope, spec.id, {
      retentionPeriod: spec.retention,
      visibilityTimeout: Duration.seconds(spec.visibilitySeconds),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      ...(redrive ? { deadLetterQueue: redrive } : {}),
    });
    (q.node.defaultChild as sqs.CfnQueue).overrideLogicalId(spec.logicalId);
    return q;
  };
  const deadLetter = make(opts.deadLetter);
  Validations.of(deadLetter.node.defaultChild as sqs.CfnQueue).acknowledge({ id: 'Serverless-SQSRedrivePolicy', reason: opts.deadLetter.whyNoRedrive });
  // Every receive counts, so maxReceiveCount bounds the attempts of a message.
  const queue = make(opts.queue, { queue: deadLetter, maxReceiveCount: opts.maxReceiveCount });
  return { queue, deadLetter };
}
