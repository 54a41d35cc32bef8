import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { BaseRecord, FailureResponse, SuccessResponse } from '@aws-lambda-powertools/batch/types';
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { logger } from '../observability/logger';

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
export function processQueueBatch(
  event: SQSEvent,
  context: Context | undefined,
  handle: (record: SQSRecord) => Promise<void>,
): Promise<SQSBatchResponse> {
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
