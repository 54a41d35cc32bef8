/**
 * Undoing an applied import job as a whole, within `imports.undoDays` of its end: each applied
 * row's change taken back in the member's own transaction together with the deletion of the row's
 * record, so an undo cut short and run again takes back only what is left. Opening balances are
 * reversed (a correction naming the entry, from the entry's own lot), tiers put back as they were,
 * a bulk job's rows by their kind (bulk.ts), and the members a members job created removed if
 * untouched since (the others kept and counted).
 */
import { config } from '../platform/config';
import { conflict } from '../platform/errors';
import { logger } from '../platform/observability/logger';
import { removeIfUntouched, type ReversalStore, restoreTier, takeBackOpeningBalance } from '../members';
import { memberTagsGoneSteps } from '../tags';
import { undoBulk } from './bulk';
import { type ImportJobRecord, type ImportRowRecord, isBulkKind } from './entities';
import * as repo from './repository';
import { inLanes, loadJob } from './service';
import { toImportJob } from './types';

const c = config.imports;
const DAY_MS = 86_400_000;

/** What refuses an undo of `job` at `now`, if anything. */
export function undoRefusal(job: Pick<ImportJobRecord, 'status' | 'completedAt'>, now: number, undoDays: number): string | null {
  if (job.status !== 'completed' && job.status !== 'failed') return `The import job is ${job.status}; only a completed or failed job is undone`;
  if (job.completedAt !== null && Date.parse(job.completedAt) + undoDays * DAY_MS < now)
    return `The import job ended more than ${undoDays} days ago; it can no longer be undone`;
  return null;
}

type Undone = 'undone' | 'kept' | 'failed';

/**
 * A member row: a member the job created is removed with its tags if untouched since (members.removal),
 * else kept and counted; a member it matched keeps the fields the row set. Either way the row is settled.
 */
async function undoMemberRow(ws: string, row: ImportRowRecord): Promise<Undone> {
  const settle = [repo.deleteRowStep(ws, row)];
  if (row.outcome !== 'created' || row.version === undefined || row.rev === undefined) {
    await repo.transactWrite(settle);
    return row.outcome === 'created' ? 'kept' : 'undone';
  }
  const now = new Date().toISOString();
  const out = await removeIfUntouched(ws, row.memberId, { version: row.version, rev: row.rev }, async (m) => [...memberTagsGoneSteps(m, now), ...settle]);
  if (out !== 'removed') await repo.transactWrite(settle);
  return out === 'kept' ? 'kept' : 'undone';
}

async function undoRow(job: ImportJobRecord, row: ImportRowRecord, store: ReversalStore): Promise<Undone> {
  const ws = job.workspaceId;
  const steps = [repo.deleteRowStep(ws, row)];
  try {
    if (job.kind === 'members') return await undoMemberRow(ws, row);
    if (isBulkKind(job.kind)) await undoBulk(job as ImportJobRecord & { kind: typeof job.kind }, row, steps, store);
    else if (row.entryId) await takeBackOpeningBalance(store, ws, row.memberId, row.entryId, { countedLifetime: job.countLifetime, steps });
    else if (row.tierBefore) await restoreTier(store.ledger, ws, row.memberId, row.tierBefore, steps);
    return 'undone';
  } catch (err) {
    logger.warn('import row not undone', { workspaceId: ws, jobId: job.id, line: row.line, error: err as Error });
    return 'failed';
  }
}

/** Undoes the job's applied rows (all of them, or it stays as it was and answers 409 with how many are left). */
export async function undoImport(workspaceId: string, jobId: string, ports: { reversals: ReversalStore }, now = new Date()) {
  const job = await loadJob(workspaceId, jobId);
  const refusal = undoRefusal(job, now.getTime(), c.undoDays);
  if (refusal) throw conflict(refusal);
  const counts = { undone: job.undo?.undone ?? 0, kept: job.undo?.kept ?? 0 };
  let left = 0;
  for await (const page of repo.appliedRows(workspaceId, jobId)) {
    const done = await inLanes(page, c.rowConcurrency, (row) => undoRow(job, row, ports.reversals));
    for (const d of done)
      if (d === 'failed') left++;
      else counts[d]++;
  }
  if (left > 0) {
    // What was taken back stays counted for the next undo.
    await repo.transition(workspaceId, jobId, [job.status], { undo: counts });
    throw conflict(`${left} rows could not be undone; undo again to take back what is left`);
  }
  const undone = await repo.transition(workspaceId, jobId, [job.status], { status: 'undone', undoneAt: now.toISOString(), undo: counts });
  if (!undone) throw conflict('The import job changed meanwhile; read it and try again');
  return toImportJob(undone);
}
