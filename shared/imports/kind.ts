import type { TransactStep } from '../platform/data/transactions';
import type { LedgerStore, ReversalStore } from '../members';
import type { ImportJobRecord, ImportRowRecord } from './entities';

/**
 * The shape every bulk kind's effects share. `apply` makes one row's change to a member with the
 * row's record (`record(extra)`: put only if absent) in the change's own transaction, or the record
 * alone when the change is no change; `undo` takes back what the record says the row did, with
 * `steps` (the record's deletion) in the same transaction.
 */
export interface BulkEffect<C> {
  apply(job: ImportJobRecord, memberId: string, change: C, record: (extra: Partial<ImportRowRecord>) => TransactStep, ledger: LedgerStore): Promise<void>;
  undo(job: ImportJobRecord, row: ImportRowRecord, steps: TransactStep[], reversals: ReversalStore): Promise<void>;
}
