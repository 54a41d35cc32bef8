/**
 * Classification of store failures. "Transient" means "the database is busy or could not be
 * reached", not "you are wrong": the HTTP layer answers 503 with Retry-After.
 */

/** AWS error names (service or SDK) that mean busy, unavailable or too slow. */
const TRANSIENT_NAMES = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
  'AbortError',
  'TransactionInProgressException',
]);

/** Node.js socket and resolver codes: the store was not reached, or the connection broke. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNABORTED',
  'UND_ERR_SOCKET',
]);

/** Failures that prove the request never reached the store (nothing can have been applied). */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** Refusals by the service itself before doing anything. */
const REFUSED_NAMES = new Set(['ProvisionedThroughputExceededException', 'ThrottlingException', 'RequestLimitExceeded']);

type Inspectable = Error & { code?: unknown; $metadata?: { httpStatusCode?: number }; $retryable?: unknown; cause?: unknown };

function walk(err: unknown, test: (e: Inspectable) => boolean, depth = 0): boolean {
  if (!(err instanceof Error) || depth > 5) return false;
  const e = err as Inspectable;
  if (test(e)) return true;
  if (e instanceof AggregateError && e.errors.some((inner) => walk(inner, test, depth + 1))) return true;
  return e.cause !== undefined && walk(e.cause, test, depth + 1);
}

export function isTransientDependencyError(err: unknown): boolean {
  return walk(err, (e) => {
    const status = e.$metadata?.httpStatusCode ?? 0;
    return (
      TRANSIENT_NAMES.has(e.name) || (typeof e.code === 'string' && NETWORK_CODES.has(e.code)) || e.$retryable !== undefined || (status >= 500 && status <= 599)
    );
  });
}

/**
 * True when a failed write certainly was not applied: the connection was never made, or the service
 * refused it (throttling). A time-out, a broken connection or a 5xx after sending proves nothing.
 */
export function provesNotApplied(err: unknown): boolean {
  return walk(err, (e) => (typeof e.code === 'string' && NOT_SENT_CODES.has(e.code)) || REFUSED_NAMES.has(e.name));
}

/**
 * DynamoDB refused a write because an item would be larger than 400 KB: a `ValidationException`
 * ("Item size has exceeded the maximum allowed size", "Item size to update has exceeded ..."), or a
 * transaction cancelled for that reason (`ValidationError`). Nothing was applied; sending the same
 * write again fails again, so it is the caller's to shorten, not a failure of ours.
 */
export function isItemTooLarge(err: unknown): boolean {
  const tooLarge = (message: unknown) => typeof message === 'string' && /item size .*exceeded the maximum allowed size/i.test(message);
  return walk(err, (e) => {
    if (e.name === 'ValidationException' && tooLarge(e.message)) return true;
    const reasons = (e as { CancellationReasons?: { Code?: string; Message?: string }[] }).CancellationReasons;
    return e.name === 'TransactionCanceledException' && (reasons ?? []).some((r) => r.Code === 'ValidationError' && tooLarge(r.Message));
  });
}
