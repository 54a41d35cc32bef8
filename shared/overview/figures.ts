import { readFigures } from './repository';
import { backfillProgress } from './points-repository';
import { daysThrough } from './reports';
import { addCounters, type DayCounters } from './points-day';
import { allEndpoints, listAttempts } from '../webhooks';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Sorts after every day: all of them. */
const LAST_DAY = '9999-12-31';
/** Attempts read per endpoint at most (newest first): the figure is then a lower bound, said so. */
const ATTEMPTS_READ = 1000;

export interface WebhookHealth {
  delivered: number;
  failed: number;
  dead: number;
  /** True when an endpoint had more attempts in the window than were read. */
  partial: boolean;
}

/** Attempts of the last 24 hours, from each endpoint's delivery log (newest first, stopped at the window). */
export async function webhookHealth(workspaceId: string, now: Date): Promise<WebhookHealth> {
  const since = new Date(now.getTime() - DAY_MS).toISOString();
  const health: WebhookHealth = { delivered: 0, failed: 0, dead: 0, partial: false };
  for (const endpoint of await allEndpoints(workspaceId)) {
    let cursor: string | undefined;
    let read = 0;
    do {
      const page = await listAttempts(workspaceId, endpoint.id, 100, cursor);
      const recent = page.items.filter((a) => a.at >= since);
      for (const a of recent) {
        if (a.state === 'delivered') health.delivered++;
        else if (a.state === 'dead') health.dead++;
        else if (a.state === 'failed' || a.state === 'retrying') health.failed++;
      }
      read += page.items.length;
      cursor = recent.length === page.items.length ? page.nextCursor : undefined;
    } while (cursor && read < ATTEMPTS_READ);
    if (cursor) health.partial = true;
  }
  return health;
}

/**
 * The console's overview: running totals kept on write, webhook health of the last 24 hours, exports
 * under way. The exports sit above the overview (their sections read every area): the handler passes
 * their count in (`exports/jobs.ts`), so the overview never imports them.
 */
export async function overview(workspaceId: string, exportsRunning: (workspaceId: string) => Promise<number>, now = new Date()) {
  const [figures, days, backfill, webhooks, running] = await Promise.all([
    readFigures(workspaceId),
    daysThrough(workspaceId, LAST_DAY),
    backfillProgress(workspaceId),
    webhookHealth(workspaceId, now),
    exportsRunning(workspaceId),
  ]);
  const c = days.reduce<DayCounters>((s, d) => addCounters(s, d.counters), {});
  // Points and orders are the day counters' (the totals' own figures are what was counted before them);
  // redeemed counts redemptions only, so the totals' figure, which counted every debit, is not added.
  // Once a backfill counts the ledger from before the counters, its days hold what the totals counted.
  const issuedBefore = backfill ? 0 : figures.pointsIssued;
  return {
    members: figures.members,
    pointsIssued: issuedBefore + (c.issuedBase ?? 0) + (c.issuedCampaign ?? 0) + (c.issuedManual ?? 0),
    pointsRedeemed: c.redeemed ?? 0,
    orders: figures.orders + (c.orders ?? 0),
    webhooks,
    exportsRunning: running,
    generatedAt: now.toISOString(),
  };
}
