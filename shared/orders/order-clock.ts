/**
 * The recording time of an order, and the refusal of one placed in the future
 * (docs/decisions/0077-one-clock-per-order.md).
 */
import { validationFailed } from '../platform/errors';
import { FUTURE_SKEW_MS, inTheFuture } from '../program/order-time';

/**
 * The program time an order is recorded at (a sandbox's clock), refusing an `occurredAt` later than
 * that by more than the clock skew tolerated: an order cannot have been placed in the future.
 */
export async function recordingTime(
  workspaceId: string,
  occurredAt: string,
  now: Date,
  programNow: (workspaceId: string, now: Date) => Promise<Date>,
): Promise<string> {
  const recordedAt = await programNow(workspaceId, now);
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
