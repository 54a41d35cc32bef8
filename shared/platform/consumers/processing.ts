import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { BaseRecord, FailureResponse, SuccessResponse } from '@aws-lambda-powertools/batch/types';
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type * as z from 'zod';
import { describeIssues } from '../validation/validation';
import { logger } from '../observability/logger';
import type { Queue, QueueName } from '../ports/queue';

/**
 * Partial batch responses for the background consumers, on Powertools' batch processor. A record
 * handler that throws fails its record alone; a failure is reported in `batchItemFailures`, never
 * as an invocation error (`throwOnFullBatchFailure: false`), also when every record failed: a batch
 * of deliveries that all wait for their retry is normal work, not a function error.
 *
 * One processor per invocation: outside Lambda's InvokeStore the processor keeps its batch on the
 * instance, and the local queue driver runs several invocations of one module at once.
 */

/** SQS: records in parallel; a failed record stays on the queue, the others are deleted. */
export function processQueueBatch(event: SQSEvent, context: Context | undefined, handle: (record: SQSRecord) => Promise<void>): Promise<SQSBatchResponse> {
  const processor = new BatchProcessor(EventType.SQS, { logger });
  return processPartialResponse(event, handle, processor, { ...(context ? { context } : {}), throwOnFullBatchFailure: false });
}

/** Reported for the records after a failed one: they were not attempted. */
export class NotAttempted extends Error {
  constructor() {
    super('not attempted: an earlier record of the batch failed');
    this.name = 'NotAttempted';
  }
}

/**
 * Powertools processes stream records one by one with `processInParallel: false`, but goes on after
 * a failure. Lambda retries a stream from the lowest reported sequence number, so the records after
 * a failure would be handled now and again on the retry, and out of order. This processor stops at
 * the first failure and reports it with everything after it.
 */
class InOrderStreamProcessor extends BatchProcessor {
  #stopped = false;

  constructor() {
    super(EventType.DynamoDBStreams, { logger });
  }

  override prepare(): void {
    super.prepare();
    this.#stopped = false;
  }

  override async processRecord(record: BaseRecord): Promise<SuccessResponse | FailureResponse> {
    if (this.#stopped) return this.failureHandler(record as DynamoDBRecord, new NotAttempted());
    const result = await super.processRecord(record);
    if (result[0] === 'fail') this.#stopped = true;
    return result;
  }
}

/** DynamoDB stream: records in stream order, stopping at the first failure (retried from there). */
export function processStreamInOrder(
  event: DynamoDBStreamEvent,
  context: Context | undefined,
  handle: (record: DynamoDBRecord) => Promise<void>,
): Promise<DynamoDBBatchResponse> {
  return processPartialResponse(event, handle, new InOrderStreamProcessor(), {
    ...(context ? { context } : {}),
    processInParallel: false,
    throwOnFullBatchFailure: false,
  });
}

/** Reported as a failed record so the message is not deleted: it comes back once its new visibility ends. */
export class RetryScheduled extends Error {
  constructor(readonly seconds: number) {
    super(`retry scheduled in ${seconds} s`);
    this.name = 'RetryScheduled';
  }
}

/**
 * The one retry path of the queue workers: the message becomes visible again in `seconds` and is
 * kept (its next receive is the next attempt; the redrive moves it to the dead-letter queue after
 * maxReceiveCount receives).
 */
export async function retryAfter(queue: Queue, name: QueueName, record: SQSRecord, seconds: number): Promise<never> {
  await queue.changeVisibility(name, record.receiptHandle, seconds);
  throw new RetryScheduled(seconds);
}

export class MalformedMessage extends Error {
  constructor() {
    super('malformed message');
    this.name = 'MalformedMessage';
  }
}

/**
 * The one malformed-message policy of the queue workers: a body that is not JSON or not what
 * `body` accepts is logged (`<logEvent>`, with its issues, never its content) and failed, not
 * dropped: it comes back after the visibility timeout like any retry, and the redrive moves it to
 * the dead-letter queue after maxReceiveCount receives. The wait lets a message of a newer producer
 * still be handled once this consumer is deployed too; a body that can never parse costs
 * maxReceiveCount receives, not a loop.
 */
export function parseMessage<T>(record: SQSRecord, body: z.ZodType<T, string>, log: { queue: QueueName; event: string }): T {
  const parsed = body.safeParse(record.body);
  if (parsed.success) return parsed.data;
  logger.error(log.event, {
    event: log.event,
    queue: log.queue,
    messageId: record.messageId,
    receiveCount: Number(record.attributes.ApproximateReceiveCount),
    bodyLength: record.body.length,
    issues: describeIssues(parsed.error),
  });
  throw new MalformedMessage();
}
