import type * as z from 'zod';
import { AppError, validationFailed } from '../errors';
import { toDetails } from './validation';

export type BatchOutcome = 'created' | 'updated' | 'unchanged' | 'failed';

export interface ItemError {
  code: string;
  message: string;
  details?: unknown[];
}

/**
 * Runs `fn` over the items with bounded concurrency, keeping items that share a lane (the same
 * member or order) in their original order, one after the other. Results come back in item order.
 */
export async function runInLanes<T, R>(
  items: readonly T[],
  laneOf: (item: T, index: number) => string,
  concurrency: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const lanes = new Map<string, number[]>();
  items.forEach((item, i) => {
    const lane = laneOf(item, i);
    lanes.set(lane, [...(lanes.get(lane) ?? []), i]);
  });
  const queue = [...lanes.values()];
  const results = new Array<R>(items.length);
  await Promise.all(
    Array.from({ length: Math.min(concurrency, queue.length) }, async () => {
      for (let lane = queue.shift(); lane; lane = queue.shift()) {
        for (const i of lane) results[i] = await fn(items[i]!, i);
      }
    }),
  );
  return results;
}

/** Validates one batch item on its own: a bad item fails alone instead of failing the batch. */
export function parseItem<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw validationFailed(toDetails('body', parsed.error));
  return parsed.data;
}

/** Domain errors become the item's failure; anything unexpected fails the whole request (safe to retry). */
export function itemError(err: unknown): ItemError {
  if (err instanceof AppError) return { code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) };
  throw err;
}

export const summarise = (results: { outcome: BatchOutcome }[]) => ({
  created: results.filter((r) => r.outcome === 'created').length,
  updated: results.filter((r) => r.outcome === 'updated').length,
  unchanged: results.filter((r) => r.outcome === 'unchanged').length,
  failed: results.filter((r) => r.outcome === 'failed').length,
});
