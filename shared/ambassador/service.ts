import { randomInt } from 'node:crypto';
import * as repo from './repository';
import { listOrderRecords as listOrders } from '../orders';
import { withOptimisticRetry } from '../platform/data/concurrency';
import type { Page } from '../platform/data/queries';
import type { TransactStep } from '../platform/data/transactions';
import { transactWrite } from './repository';
import { event, publish } from '../platform/events/outbox';
import { conflict } from '../platform/errors';
import { loadWritableMember } from '../members';
import { fromMinor } from '../platform/money';
import type { ReferralOutcome } from './entities';
import { sealSteps, type WriteOptions } from '../platform/data/write-options';
import { CODE_ALPHABET, CODE_LENGTH, QUALIFIERS, type AmbassadorMetrics, type Candidate, type ReferralCode } from './schemas';

export const newReferralCode = (): string => Array.from({ length: CODE_LENGTH }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');

const toReferralCode = (a: repo.AmbassadorRecord): ReferralCode => ({
  memberId: a.memberId,
  code: a.code,
  issuedAt: a.issuedAt,
  referredSignups: a.referredSignups,
});

/**
 * The member's referral code, issued on the first call (201, emits `ambassador.code_issued`) and
 * answered unchanged afterwards (200). One code per member even under concurrent calls (the
 * ambassador item is created conditionally; the loser re-reads the winner's code); codes are unique
 * per workspace (the code lookup is created conditionally; a collision draws a new code).
 */
export async function issueReferralCode(
  workspaceId: string,
  memberId: string,
  opts: WriteOptions<{ code: ReferralCode; issued: boolean }> = {},
  now = () => new Date(),
): Promise<{ code: ReferralCode; issued: boolean }> {
  return withOptimisticRetry(async () => {
    const [member, existing] = await Promise.all([loadWritableMember(workspaceId, memberId), repo.getAmbassador(workspaceId, memberId)]);
    if (existing) return { code: toReferralCode(existing), issued: false };
    if (member.status !== 'active') throw conflict('The member is unenrolled; no referral code can be issued');
    const at = now();
    const record: repo.AmbassadorRecord = { memberId, code: newReferralCode(), issuedAt: at.toISOString(), referredSignups: 0 };
    const result = { code: toReferralCode(record), issued: true };
    await transactWrite([
      ...repo.issueCodeSteps(workspaceId, record),
      ...publish(workspaceId, [event('ambassador.code_issued', { resource_id: memberId, member_ref: memberId }, at)]),
      ...sealSteps(opts, result),
    ]);
    return result;
  });
}

/**
 * The steps that link a member being created to the ambassador owning `code`, for the sign-up's own
 * transaction. An unknown code links nothing (the sign-up still happens).
 */
export async function referralLink(
  workspaceId: string,
  code: string,
  link: { memberId: string; captureId: string; at: string },
): Promise<{ outcome: ReferralOutcome; referrerId: string | null; steps: TransactStep[] }> {
  const referrerId = await repo.referralCodeOwner(workspaceId, code);
  if (!referrerId) return { outcome: 'unknown_code', referrerId: null, steps: [] };
  return {
    outcome: 'linked',
    referrerId,
    steps: repo.referralSteps(workspaceId, { memberId: link.memberId, referrerId, code, captureId: link.captureId, createdAt: link.at }),
  };
}

export async function listCandidates(
  workspaceId: string,
  q: { limit: number; cursor?: string; minLifetimePoints: number; minOrderCount: number },
): Promise<Page<Candidate>> {
  const page = await repo.candidatePage(workspaceId, q, q.limit, q.cursor);
  const codes = page.items.length
    ? await repo.ambassadorsOf(
        workspaceId,
        page.items.map((m) => m.id),
      )
    : new Map<string, repo.AmbassadorRecord>();
  return {
    ...page,
    items: page.items.map((m) => {
      const a = codes.get(m.id);
      const meets: Record<(typeof QUALIFIERS)[number], boolean> = {
        lifetime_points: m.lifetime >= q.minLifetimePoints,
        order_count: m.orderCount >= q.minOrderCount,
      };
      return {
        memberId: m.id,
        email: m.email,
        firstName: m.firstName,
        lastName: m.lastName,
        tier: m.tier,
        lifetimePoints: m.lifetime,
        orderCount: m.orderCount,
        qualifiesBy: QUALIFIERS.filter((k) => meets[k]),
        referralCode: a?.code ?? null,
        referredSignups: a?.referredSignups ?? 0,
      };
    }),
  };
}

/** Referred members whose orders one metrics answer sums up. */
export const REVENUE_MEMBER_CAP = 2000;
const REVENUE_CONCURRENCY = 16;

/**
 * Counters for codes and sign-ups (one read); revenue is summed on read from the completed orders of
 * the referred members (one index query per referred member, bounded by REVENUE_MEMBER_CAP).
 */
export async function metrics(workspaceId: string): Promise<AmbassadorMetrics> {
  const [stats, referred] = await Promise.all([repo.getStats(workspaceId), repo.referredMemberIds(workspaceId, REVENUE_MEMBER_CAP)]);
  const sums = new Map<string, { minor: number; orders: number }>();
  const queue = [...referred.ids];
  await Promise.all(
    Array.from({ length: Math.min(REVENUE_CONCURRENCY, queue.length) }, async () => {
      for (let memberId = queue.shift(); memberId; memberId = queue.shift()) {
        let cursor: string | undefined;
        do {
          const page = await listOrders(workspaceId, { memberId, status: 'completed' }, 200, cursor);
          for (const o of page.items) {
            const s = sums.get(o.currency) ?? { minor: 0, orders: 0 };
            s.minor += o.totalMinor - o.refundedMinor;
            s.orders += 1;
            sums.set(o.currency, s);
          }
          cursor = page.nextCursor;
        } while (cursor);
      }
    }),
  );
  return {
    codesIssued: stats.codesIssued,
    referredSignups: stats.referredSignups,
    referredRevenue: [...sums.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([currency, s]) => ({ currency, amount: fromMinor(s.minor, currency), orders: s.orders })),
    referredRevenueComplete: referred.complete,
  };
}
