/**
 * `GET .../members/{id}/explain`: a member's points at a moment, replayed from the ledger
 * (`explain.ts`). The ledger is read oldest first up to the moment and the program's pendingDays
 * after it (the activations that tell what waited), at most MAX_EXPLAIN_ENTRIES entries.
 */
import { ledgerPage } from './repository';
import type { LedgerEntryRecord } from './entities';
import { explainAt } from './explain';
import { loadMember } from './ledger';
import type { PointsAt } from './schemas';
import { rulesOf, programNow, DAY_MS } from '../program';
import { validationFailed } from '../platform/errors';

/** Most ledger entries one explanation reads (a member with more is explained up to the last of them, and says so). */
export const MAX_EXPLAIN_ENTRIES = 5000;
const PAGE = 1000;

async function entriesUntil(workspaceId: string, memberId: string, until: number): Promise<{ entries: LedgerEntryRecord[]; truncated: boolean }> {
  const entries: LedgerEntryRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await ledgerPage(workspaceId, memberId, PAGE, cursor, 'oldest');
    for (const e of page.items) {
      if (Date.parse(e.createdAt) > until) return { entries, truncated: false };
      if (entries.length === MAX_EXPLAIN_ENTRIES) return { entries, truncated: true };
      entries.push(e);
    }
    cursor = page.nextCursor;
  } while (cursor);
  return { entries, truncated: false };
}

const iso = (t: number) => new Date(t).toISOString();

export async function explainPoints(workspaceId: string, memberId: string, at?: string): Promise<PointsAt> {
  const [member, rules, now] = await Promise.all([loadMember(workspaceId, memberId), rulesOf(workspaceId), programNow(workspaceId)]);
  const moment = at === undefined ? now.getTime() : Date.parse(at);
  if (moment > now.getTime()) throw validationFailed([{ in: 'query', field: 'at', message: `must not be after now (${now.toISOString()})` }]);
  const read = await entriesUntil(workspaceId, memberId, moment + rules.points.pendingDays * DAY_MS);
  const waitingNow = member.lots?.pending ?? [];
  // Orders recorded as pending hold points outside the ledger until they complete: counted from the member's last change on.
  const statusPending = moment >= Date.parse(member.updatedAt) ? member.pending - waitingNow.reduce((s, p) => s + p.points, 0) : 0;
  const x = explainAt({ entries: read.entries, createdAt: Date.parse(member.createdAt), waitingNow, statusPending }, rules, moment);
  const last = read.entries.slice(0, x.replayed).at(-1);
  return {
    at: iso(moment),
    points: { balance: x.balance, pending: x.pending, lifetime: x.lifetime },
    lots: x.lots.map((l) => ({ ...l, earnedAt: iso(l.earnedAt), expiresAt: l.expiresAt === null ? null : iso(l.expiresAt) })),
    waiting: x.waiting.map((w) => ({ orderId: w.orderId, points: w.points, activatesAt: iso(w.activatesAt) })),
    tier: {
      key: x.tier.key,
      metric: rules.tiers.metric,
      window: rules.tiers.window,
      value: x.tier.value,
      windowFrom: x.tier.windowFrom === null ? null : iso(x.tier.windowFrom),
      reachedAt: iso(x.tier.reachedAt),
      retainedUntil: x.tier.retainedUntil > moment ? iso(x.tier.retainedUntil) : null,
    },
    ledger: { replayed: x.replayed, truncated: read.truncated && x.replayed === read.entries.length, lastEntryAt: last ? last.createdAt : null },
  };
}
