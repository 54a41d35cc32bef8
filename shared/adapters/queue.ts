import { runtimeConfig } from '../config';
import type { Queue } from '../ports/queue';
import { LocalQueue } from './local-queue';
import { SqsQueue } from './sqs-queue';

let queue: Queue | undefined;

/** The process's queue: the local emulation when STAGE=local, Amazon SQS otherwise. */
export function queueFromConfig(): Queue {
  if (!queue) {
    const cfg = runtimeConfig();
    queue = cfg.STAGE === 'local' ? new LocalQueue() : new SqsQueue(cfg.AWS_REGION);
  }
  return queue;
}
