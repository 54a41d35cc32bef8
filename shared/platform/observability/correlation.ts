import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The correlation id of the work in progress: the `x-request-id` of the HTTP request that caused
 * it, or, in a background worker, the one its message carries. Kept in async-local storage so the
 * domain and the data layer can stamp it on what they write (an outbox item, a queue message, a
 * member) without every signature passing it along; the local runtime serves concurrent requests
 * and consumers from one process, so nothing of it lives in module state.
 */
interface CorrelationScope {
  correlationId?: string;
}

const scopes = new AsyncLocalStorage<CorrelationScope>();

/** Runs `work` with `correlationId` as the current id (undefined: explicitly none). */
export function withCorrelation<T>(correlationId: string | undefined, work: () => T): T {
  return scopes.run({ correlationId }, work);
}

/** The current correlation id, if the work in progress has one. */
export const correlationId = (): string | undefined => scopes.getStore()?.correlationId;

/** `{ correlationId }` for a log line, or nothing when there is none. */
export const correlated = (id: string | undefined = correlationId()): { correlationId?: string } => (id ? { correlationId: id } : {});
