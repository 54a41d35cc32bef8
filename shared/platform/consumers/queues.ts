import { config, webhookSettings, type WebhookSettings } from '../config';
import { QUEUES, type QueueName } from '../ports/queue';
import { consumer } from './table';

export interface QueueDeclaration {
  /** Seconds a received message stays hidden (may be fractional locally, for tests). */
  visibilitySeconds: number;
  /** Redrive policy: the receive after `maxReceiveCount` receives moves the message to `deadLetter`. */
  redrive?: { maxReceiveCount: number; deadLetter: QueueName };
}

/**
 * The numbers of each queue, for CDK (`sqs.Queue`) and the local queue driver alike. The delivery
 * queue's receive count is the attempt number (retries change visibility), so maxAttempts bounds it;
 * the DLQ's visibility is 6x its consumer's timeout (AWS guidance for SQS event sources).
 */
export function queueDeclarations(settings: WebhookSettings = webhookSettings()): Record<QueueName, QueueDeclaration> {
  return {
    webhookDeliveries: {
      visibilitySeconds: settings.visibilitySeconds,
      redrive: { maxReceiveCount: settings.maxAttempts, deadLetter: QUEUES.webhookDeliveries.deadLetter },
    },
    webhookDeadLetters: { visibilitySeconds: 6 * consumer('webhook-dlq').timeoutSeconds },
    // --- Wallet cards: a failed push comes back after its backoff; maxReceiveCount bounds the attempts.
    walletPushes: {
      visibilitySeconds: config.wallet.push.visibilitySeconds,
      redrive: { maxReceiveCount: config.wallet.push.maxReceiveCount, deadLetter: QUEUES.walletPushes.deadLetter },
    },
    // No consumer: what lands here stays for operators (14 days, alarmed).
    walletPushDeadLetters: { visibilitySeconds: config.wallet.push.visibilitySeconds },
  };
}
