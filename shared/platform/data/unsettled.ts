import { AppError } from '../errors';
import { storeScope } from './client';

/** What a request owes its caller about its writes: an in-doubt write makes its last-resort answer `OUTCOME_UNKNOWN`. */

/**
 * Runs one write of the current request, counting it as unsettled while it runs and for the rest of
 * the request when its outcome stays unknown (the request's last-resort answer is then
 * `OUTCOME_UNKNOWN`, see shared/http/area.ts); a write settled either way is uncounted.
 */
export async function unsettled<T>(write: () => Promise<T>): Promise<T> {
  const scope = storeScope();
  if (scope) scope.unsettledWrites++;
  try {
    const out = await write();
    if (scope) scope.unsettledWrites--;
    return out;
  } catch (err) {
    if (scope && !(err instanceof AppError && err.code === 'OUTCOME_UNKNOWN')) scope.unsettledWrites--;
    throw err;
  }
}

/** The error for a request aborted (deadline or caller) before an attempt was sent. */
export const abortedError = (reason: unknown): Error =>
  reason instanceof Error ? reason : Object.assign(new Error('Request aborted'), { name: 'AbortError' });
