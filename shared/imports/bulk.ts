/** The bulk kinds' effects by kind: the one place apply.ts and undo.ts dispatch a bulk row to. */
import type { TransactStep } from '../platform/data/transactions';
import type { LedgerStore, ReversalStore } from '../members';
import type { BulkKind, ImportJobRecord, ImportRowRecord } from './entities';
import type { BulkEffect } from './kind';
import { pointsEffect } from './points';
import type { BulkRow } from './rows';
import { tagsEffect } from './tags';

const BULK_EFFECTS: { [K in BulkKind]: BulkEffect<Extract<BulkRow, { kind: K }>['change']> } = { points: pointsEffect, tags: tagsEffect };

const effectOf = (kind: BulkKind) => BULK_EFFECTS[kind] as BulkEffect<BulkRow['change']>;

/** A bulk row's change to `memberId`, its record made by `record` in the same transaction. */
export function applyBulk(
  job: ImportJobRecord,
  row: BulkRow,
  memberId: string,
  record: (extra: Partial<ImportRowRecord>) => TransactStep,
  ledger: LedgerStore,
): Promise<void> {
  return effectOf(row.kind).apply(job, memberId, row.change, record, ledger);
}

/** A bulk job's applied row taken back, with `steps` in the same transaction. */
export function undoBulk(job: ImportJobRecord & { kind: BulkKind }, row: ImportRowRecord, steps: TransactStep[], reversals: ReversalStore): Promise<void> {
  return effectOf(job.kind).undo(job, row, steps, reversals);
}
