import { ChangeMessageVisibilityCommand, SQSClient, SendMessageBatchCommand, type SendMessageBatchRequestEntry } from '@aws-sdk/client-sqs';
import { queueUrlEnvName, type OutgoingMessage, type Queue, type QueueName } from '../ports/queue';
import { traceClient } from '../observability/tracing';

/** SendMessageBatch takes at most 10 entries. */
const BATCH = 10;
/** Entries SQS failed on its side (not the sender's fault) are sent again this many times. */
const RETRIES = 3;

/** The `Queue` port on Amazon SQS. */
export class SqsQueue implements Queue {
  private readonly client: SQSClient;

  constructor(
    region: string,
    private readonly env: Record<string, string | undefined> = process.env,
    client?: SQSClient,
  ) {
    this.client = client ?? traceClient(new SQSClient({ region }));
  }

  urlOf(queue: QueueName): string {
    const name = queueUrlEnvName(queue);
    const url = this.env[name];
    if (!url) throw new Error(`${name} is not set: the URL of queue ${queue}`);
    return url;
  }

  async send(queue: QueueName, messages: OutgoingMessage[]): Promise<void> {
    const QueueUrl = this.urlOf(queue);
    for (let i = 0; i < messages.length; i += BATCH) {
      let entries: SendMessageBatchRequestEntry[] = messages.slice(i, i + BATCH).map((m, j) => ({
        Id: String(i + j),
        MessageBody: m.body,
        ...(m.delaySeconds !== undefined ? { DelaySeconds: m.delaySeconds } : {}),
      }));
      for (let attempt = 1; entries.length > 0; attempt++) {
        const out = await this.client.send(new SendMessageBatchCommand({ QueueUrl, Entries: entries }));
        const failed = out.Failed ?? [];
        if (failed.length === 0) break;
        const fatal = failed.filter((f) => f.SenderFault);
        if (fatal.length > 0 || attempt > RETRIES) {
          const f = fatal[0] ?? failed[0]!;
          throw new Error(`SQS refused ${failed.length} message(s) for ${queue}: ${f.Code} ${f.Message ?? ''}`.trim());
        }
        const retry = new Set(failed.map((f) => f.Id));
        entries = entries.filter((e) => retry.has(e.Id));
      }
    }
  }

  async changeVisibility(queue: QueueName, receiptHandle: string, seconds: number): Promise<void> {
    await this.client.send(new ChangeMessageVisibilityCommand({ QueueUrl: this.urlOf(queue), ReceiptHandle: receiptHandle, VisibilityTimeout: seconds }));
  }
}
