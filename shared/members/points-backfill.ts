import { getProgram } from '../program';
import {
  addCounters,
  backfillMoves,
  localDay,
  type DayCounters,
  backfillMonths,
  backfillProgress,
  commitBackfillPage,
  type BackfillProgress,
  addToMonth,
} from '../overview';
import { idTimePrefix } from '../platform/ids';
import { MAX_TRANSACTION_ITEMS } from '../platform/data/transactions';
import { validationFailed } from '../platform/errors';
import { getMember, memberIdsAfter, wholeLedger } from './repository';

/**
 * The backfill of a workspace's points counters from its ledger, for a workspace whose ledger is
 * older than the counters (decision 0084). Entries written before the cut-over instant were never
 * counted: it counts them, member by member, into month items of a shard of its own
 * (`BACKFILL_SHARD`); entries written since were counted by their own transactions and are left
 * alone, so orders may keep arriving. Each page of members commits with the progress that records
 * it (a conditional transaction), so a run stopped anywhere resumes where it stopped, and a run
 * repeated or run twice at once counts every member once.
 */

/** A member's entries through its revision as read (later ones are not in its lots as read), oldest first. */
const entriesThrough = async (workspaceId: string, memberId: string, rev: number) => (await wholeLedger(workspaceId, memberId)).filter((e) => e.rev <= rev);

/** One page of members counted and committed; the progress it leaves. */
async function backfillPage(workspaceId: string, before: BackfillProgress | undefined, cutOver: string, pageSize: number): Promise<BackfillProgress> {
  const { timeZone } = await getProgram(workspaceId);
  const page = await memberIdsAfter(workspaceId, pageSize, before?.cursor ? JSON.parse(before.cursor) : undefined);
  const writtenBefore = idTimePrefix('x', Date.parse(cutOver)).slice(2);
  const moves = new Map<string, DayCounters>();
  for (const id of page.ids) {
    const member = await getMember(workspaceId, id);
    if (!member) continue;
    const entries = await entriesThrough(workspaceId, member.id, member.rev);
    const counted = { entries, lots: member.lots, lastDay: localDay(Date.parse(member.updatedAt), timeZone) };
    for (const [day, counters] of backfillMoves(counted, writtenBefore, timeZone)) moves.set(day, addCounters(moves.get(day) ?? {}, counters));
  }
  const months = [...new Set([...moves.keys()].map((d) => d.slice(0, 7)))];
  if (months.length >= MAX_TRANSACTION_ITEMS)
    throw validationFailed([{ in: 'body', field: 'pageSize', message: 'a page spans too many months: use a smaller page' }]);
  const stored = await backfillMonths(workspaceId, months);
  const after: BackfillProgress = {
    cutOver,
    cursor: page.next ? JSON.stringify(page.next) : null,
    members: (before?.members ?? 0) + page.ids.length,
    done: !page.next,
    v: (before?.v ?? 0) + 1,
  };
  await commitBackfillPage(
    workspaceId,
    { before, after },
    months.map((m) => ({ before: stored.get(m), after: addToMonth(stored.get(m), m, moves) })),
  );
  return after;
}

/**
 * Runs the backfill of a workspace for up to `pages` pages of members (resumable: call again until
 * `done`). The cut-over is recorded by the first run; a later run keeps it (a different one is refused).
 */
export async function backfillPoints(workspaceId: string, opts: { cutOver?: string; pageSize?: number; pages?: number } = {}): Promise<BackfillProgress> {
  let progress = await backfillProgress(workspaceId);
  const cutOver = progress?.cutOver ?? opts.cutOver;
  if (!cutOver || Number.isNaN(Date.parse(cutOver)))
    throw validationFailed([{ in: 'body', field: 'cutOver', message: 'an ISO 8601 instant is required for the first run' }]);
  if (progress && opts.cutOver && Date.parse(opts.cutOver) !== Date.parse(progress.cutOver)) {
    throw validationFailed([{ in: 'body', field: 'cutOver', message: `this workspace's backfill runs with the cut-over ${progress.cutOver}` }]);
  }
  for (let page = 0; page < (opts.pages ?? Number.POSITIVE_INFINITY) && !progress?.done; page++) {
    progress = await backfillPage(workspaceId, progress, cutOver, opts.pageSize ?? 25);
  }
  return progress!;
}
