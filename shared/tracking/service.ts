import * as repo from './repository';
import { withOptimisticRetry } from '../platform/data/concurrency';
import { transactWrite } from './repository';
import { itemError, parseItem } from '../platform/validation/batch';
import { notFound, validationFailed } from '../platform/errors';
import { isMemberId } from '../members';
import { DEFAULT_STATS_DAYS, EVENT_ID, MAX_STATS_DAYS, trackEventSchema, type TrackEventInput, type TrackingStats, type TrackResult } from './schemas';

/** Events per transaction: one put each plus at most as many counters stays under DynamoDB's 100 items. */
const CHUNK = 40;

/**
 * Ingests a batch. Each event is validated on its own; the first valid occurrence of an eventId in
 * the batch counts and later ones are duplicates, as are eventIds accepted by earlier batches (a
 * read first, and the conditional put for races). Accepted events and their (day, type) counters
 * are written together, so a retried batch neither double-counts nor loses an event.
 */
type Valid = { index: number; event: TrackEventInput };
type Pending = { index: number; record: repo.TrackedEventRecord };

export async function trackEvents(workspaceId: string, items: unknown[], now = () => new Date()) {
  const results: TrackResult[] = items.map((raw, index) => {
    const id = (raw as { eventId?: unknown } | null)?.eventId;
    return { index, eventId: typeof id === 'string' && EVENT_ID.test(id) ? id : null, outcome: 'failed', error: null };
  });
  const fail = (index: number, err: unknown) => Object.assign(results[index]!, { outcome: 'failed', error: itemError(err) });
  const valid = validItems(items, results, fail);
  const pending = await newEvents(workspaceId, valid, results, fail, now().toISOString());
  await acceptEvents(workspaceId, pending, results);
  return {
    results,
    summary: {
      accepted: results.filter((r) => r.outcome === 'accepted').length,
      duplicate: results.filter((r) => r.outcome === 'duplicate').length,
      failed: results.filter((r) => r.outcome === 'failed').length,
    },
  };
}

/** The items that parse, each event id once (a repeat within the request is a duplicate). */
function validItems(items: unknown[], results: TrackResult[], fail: (index: number, err: unknown) => void): Valid[] {
  const valid: Valid[] = [];
  const firstOf = new Set<string>();
  items.forEach((raw, index) => {
    try {
      const event = parseItem(trackEventSchema, raw);
      if (firstOf.has(event.eventId)) {
        results[index]!.outcome = 'duplicate';
        return;
      }
      firstOf.add(event.eventId);
      valid.push({ index, event });
    } catch (err) {
      fail(index, err);
    }
  });
  return valid;
}

/** The valid items of known members not recorded before, as records. */
async function newEvents(
  workspaceId: string,
  valid: Valid[],
  results: TrackResult[],
  fail: (index: number, err: unknown) => void,
  receivedAt: string,
): Promise<Pending[]> {
  const memberIds = [...new Set(valid.map((v) => v.event.memberId).filter(isMemberId))];
  const [members, seen] = await Promise.all([
    repo.existingMemberIds(workspaceId, memberIds),
    repo.existingEventIds(
      workspaceId,
      valid.map((v) => v.event.eventId),
    ),
  ]);
  const pending: Pending[] = [];
  for (const { index, event } of valid) {
    if (!members.has(event.memberId)) fail(index, notFound('Member'));
    else if (seen.has(event.eventId)) results[index]!.outcome = 'duplicate';
    else {
      const occurredAt = new Date(event.occurredAt).toISOString();
      pending.push({
        index,
        record: {
          eventId: event.eventId,
          memberId: event.memberId,
          type: event.type,
          occurredAt,
          day: occurredAt.slice(0, 10),
          properties: event.properties ?? {},
          receivedAt,
        },
      });
    }
  }
  return pending;
}

/** Writes the new events in chunks; what a concurrent request accepted first becomes a duplicate. */
async function acceptEvents(workspaceId: string, pending: Pending[], results: TrackResult[]): Promise<void> {
  for (let i = 0; i < pending.length; i += CHUNK) {
    let chunk = pending.slice(i, i + CHUNK);
    while (chunk.length > 0) {
      try {
        await withOptimisticRetry(() =>
          transactWrite(
            repo.acceptSteps(
              workspaceId,
              chunk.map((c) => c.record),
            ),
          ),
        );
        for (const c of chunk) results[c.index]!.outcome = 'accepted';
        break;
      } catch (err) {
        // A concurrent request accepted some of these first: those are duplicates; the rest go again.
        if (!(err instanceof repo.AlreadyTracked)) throw err;
        const taken = await repo.existingEventIds(
          workspaceId,
          chunk.map((c) => c.record.eventId),
        );
        taken.add(err.eventId);
        for (const c of chunk) if (taken.has(c.record.eventId)) results[c.index]!.outcome = 'duplicate';
        chunk = chunk.filter((c) => !taken.has(c.record.eventId));
      }
    }
  }
}

const DAY_MS = 24 * 3600 * 1000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Counts per type and UTC day: reads of the counters kept at ingest, never of the events. */
export async function stats(workspaceId: string, q: { from?: string; to?: string; type?: string }, now = () => new Date()): Promise<TrackingStats> {
  const to = q.to ?? dayOf(now().getTime());
  const from = q.from ?? dayOf(Date.parse(to) - (DEFAULT_STATS_DAYS - 1) * DAY_MS);
  const span = (Date.parse(to) - Date.parse(from)) / DAY_MS + 1;
  if (span < 1) throw validationFailed([{ in: 'query', field: 'from', message: 'must not be after to' }]);
  if (span > MAX_STATS_DAYS) throw validationFailed([{ in: 'query', field: 'to', message: `the range may span at most ${MAX_STATS_DAYS} days` }]);

  const counters = (await repo.countersBetween(workspaceId, from, to)).filter((c) => c.count > 0 && (!q.type || c.type === q.type));
  const byDay = new Map<string, { type: string; count: number }[]>();
  const totals = new Map<string, number>();
  for (const c of counters) {
    byDay.set(c.day, [...(byDay.get(c.day) ?? []), { type: c.type, count: c.count }]);
    totals.set(c.type, (totals.get(c.type) ?? 0) + c.count);
  }
  const days = Array.from({ length: span }, (_, i) => {
    const date = dayOf(Date.parse(from) + i * DAY_MS);
    const types = (byDay.get(date) ?? []).sort((a, b) => (a.type < b.type ? -1 : 1));
    return { date, total: types.reduce((s, t) => s + t.count, 0), types };
  });
  return {
    from,
    to,
    total: days.reduce((s, d) => s + d.total, 0),
    totals: [...totals.entries()].map(([type, count]) => ({ type, count })).sort((a, b) => b.count - a.count || (a.type < b.type ? -1 : 1)),
    days,
  };
}
