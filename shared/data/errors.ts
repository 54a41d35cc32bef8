/** AWS SDK error names that mean "the database is busy or briefly unavailable", not "you are wrong". */
const TRANSIENT = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'TimeoutError',
]);

export function isTransientDependencyError(err: unknown): boolean {
  return err instanceof Error && (TRANSIENT.has(err.name) || (err as { $retryable?: unknown }).$retryable !== undefined);
}
