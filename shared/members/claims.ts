/**
 * Whose points a pending record, a lot or an expired record holds: an order's own points carry the
 * order's id; a campaign's share of an order `<orderId>/<campaignId>`, so the order's reversals
 * find each part (docs/program.md, "Campaign points follow their order"); other points none.
 */
import type { LedgerEntryRecord } from './entities';

export const bonusClaim = (orderId: string, campaignId: string) => `${orderId}/${campaignId}`;

/** The claim of a ledger entry's points: the order's id, a campaign's share of an order, or none. */
export const claimOf = (source: Pick<LedgerEntryRecord['source'], 'orderId' | 'campaignId'>): string | null =>
  source.orderId && source.campaignId ? bonusClaim(source.orderId, source.campaignId) : source.orderId;

/** The order and campaign a claim names (campaignId null: the order's own points). */
export function parseClaim(claim: string): { orderId: string; campaignId: string | null } {
  const at = claim.indexOf('/');
  return at < 0 ? { orderId: claim, campaignId: null } : { orderId: claim.slice(0, at), campaignId: claim.slice(at + 1) };
}
