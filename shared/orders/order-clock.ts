/**
 * The refusal of an order placed in the future (docs/decisions/0077-one-clock-per-order.md).
 */
import { validationFailed } from '../platform/errors';
import { FUTURE_SKEW_MS, inTheFuture } from '../program';

/**
 * The program time an order is recorded at (`recordedAt`, a sandbox's clock), refusing an
 * `occurredAt` later than that by more than the clock skew tolerated: an order cannot have been
 * placed in the future.
 */
export function recordingTime(occurredAt: string, recordedAt: Date): string {
  if (inTheFuture(Date.parse(occurredAt), recordedAt.getTime())) {
    throw validationFailed([
      {
        in: 'body',
        field: 'occurredAt',
        message: `is in the future: the program's time is ${recordedAt.toISOString()} (${FUTURE_SKEW_MS / 60_000} minutes of clock skew are tolerated)`,
      },
    ]);
  }
  return recordedAt.toISOString();
}
