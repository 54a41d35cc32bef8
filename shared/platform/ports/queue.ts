/** The queues of the platform. CDK creates them in AWS; locally the queue driver emulates them. */
export const QUEUES = {
  webhookDeliveries: { deadLetter: 'webhookDeadLetters' },
  webhookDeadLetters: { deadLetter: null },
  // --- Wallet cards ---
  walletPushes: { deadLetter: 'walletPushDeadLetters' },
  walletPushDeadLetters: { deadLetter: null },
} as const;

export type QueueName = keyof typeof QUEUES;

/**
 * QueueName -> the environment variable with its URL, `QUEUE_URL_<NAME>` (CDK sets one per queue a
 * function sends to), e.g. webhookDeliveries -> QUEUE_URL_WEBHOOKDELIVERIES.
 */
export const queueUrlEnvName = (queue: QueueName): string => `QUEUE_URL_${queue.toUpperCase()}`;

export interface OutgoingMessage {
  body: string;
  /** Seconds before the message becomes visible (SQS DelaySeconds, 0-900). */
  delaySeconds?: number;
}

/**
 * Sending side of SQS, and the one consumer-side call the delivery worker needs. Consumers receive
 * messages as Lambda SQS events (AWS: event source mapping; local: the queue driver) and report
 * failures with `batchItemFailures`.
 */
export interface Queue {
  send(queue: QueueName, messages: OutgoingMessage[]): Promise<void>;
  /** Makes an in-flight message visible again after `seconds` (how retries are scheduled). */
  changeVisibility(queue: QueueName, receiptHandle: string, seconds: number): Promise<void>;
}
