import type { TransactStep } from './transactions';

/** Options of every domain write that can take part in an idempotent request. */
export interface WriteOptions<R> {
  /** Records the idempotent answer in the same transaction as the change (one step, or more for a large answer). */
  seal?: (result: R) => TransactStep[];
}

export const sealSteps = <R>(opts: WriteOptions<R>, result: R): TransactStep[] => (opts.seal ? opts.seal(result) : []);
