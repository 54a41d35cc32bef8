import type { OutgoingMessage, Queue, QueueName } from '../../shared/platform/ports/queue';
import { changeLocalMessageVisibility, sendLocalMessages } from './local-queue-store';

/**
 * The `Queue` port on the local runtime's queue emulation (messages persisted in the local table;
 * `infra/local/queue-driver.ts` receives them and invokes the consumers). Same limits as SQS
 * (DelaySeconds 0-900, VisibilityTimeout 0-43200, 256 KiB bodies); changing the visibility with the
 * handle of an earlier receive throws `ReceiptHandleInvalid`, as SQS refuses it.
 *
 * `Q` widens the accepted queue names for tests (`new LocalQueue<string>()` on throw-away queues);
 * the local runtime provides it to the functions (`provideAdapters`), which stay on `QueueName`.
 */
export class LocalQueue<Q extends string = QueueName> implements Queue {
  async send(queue: QueueName | Q, messages: OutgoingMessage[]): Promise<void> {
    if (messages.length === 0) return;
    await sendLocalMessages(queue, messages);
  }

  async changeVisibility(queue: QueueName | Q, receiptHandle: string, seconds: number): Promise<void> {
    await changeLocalMessageVisibility(queue, receiptHandle, seconds);
  }
}
