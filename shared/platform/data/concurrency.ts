import { setTimeout as sleep } from 'node:timers/promises';
import { config } from '../config';
import { AppError } from '../errors';
import { storeDeadline, storeScope } from './client';
import { backoffMs, KeyedSerializer, mayRetry } from './contention';

/**
 * Optimistic concurrency on the store: the errors a lost race raises, the retry of a
 * read-compute-conditional-write unit, and the per-key order of one process's writers. The policy
 * (backoff, when to give up) is `contention.ts`.
 */

/** Concurrent transactions kept colliding on the same items; safe to retry on fresh state. */
export class TransactionClash extends AppError {
  constructor() {
    super('CONFLICT', 'A concurrent change touched the same data; retry');
  }
}

/**
 * Raised by a step's condition when what we read has changed meanwhile (optimistic concurrency):
 * the caller re-reads and tries again.
 */
export class StaleRead extends AppError {
  constructor(what = 'data') {
    super('CONFLICT', `The ${what} changed meanwhile; retry`);
  }
}

const serializer = new KeyedSerializer();

/**
 * Runs `work` after the earlier work of the same key in this process is done, in arrival order
 * (e.g. the changes of one member): they no longer race each other, only writers in other
 * processes. `waited` tells whether earlier work ran meanwhile (what the caller read before is then
 * likely stale). Waiting ends at the request's deadline, before `work` ran.
 */
export function inKeyOrder<T>(key: string, work: (waited: boolean) => Promise<T>): Promise<T> {
  return serializer.run(key, work, storeDeadline());
}

/** Milliseconds the current request has left (undefined outside a request). */
const msLeft = (): number | undefined => {
  const deadlineAt = storeScope()?.deadlineAt;
  return deadlineAt === undefined ? undefined : deadlineAt - Date.now();
};

/**
 * Runs a read-compute-conditional-write unit until its conditions hold, with full-jitter backoff
 * (`config.dynamodb.contention`). Only StaleRead and TransactionClash are retried; every other error
 * is final, and so is the last loss (attempts used up, or too little of the request's deadline left
 * to start another attempt). The backoff ends at the request's deadline.
 */
export async function withOptimisticRetry<T>(unit: () => Promise<T>, attempts: number = config.dynamodb.contention.maxAttempts): Promise<T> {
  const policy = config.dynamodb.contention;
  const deadline = storeDeadline();
  for (let attempt = 1; ; attempt++) {
    try {
      return await unit();
    } catch (err) {
      if (!(err instanceof StaleRead || err instanceof TransactionClash) || !mayRetry(attempt, attempts, msLeft(), policy.reserveMs)) throw err;
      await sleep(backoffMs(attempt, policy), undefined, { signal: deadline });
    }
  }
}
