import { runtimeConfig } from '../config';
import type { Queue } from '../ports/queue';
import { provided } from './provided';
import { SqsQueue } from './sqs-queue';

let sqs: Queue | undefined;

/** The process's queue: the one the local runtime provides, else Amazon SQS. */
export function queueFromConfig(): Queue {
  if (provided.queue) return provided.queue;
  sqs ??= new SqsQueue(runtimeConfig().AWS_REGION);
  return sqs;
}
