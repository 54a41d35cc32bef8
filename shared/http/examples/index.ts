import type { DECLARATIONS } from '../declarations';
import { systemExamples } from './system';
import { authExamples } from './auth';
import { apiKeysExamples } from './api-keys';
import { teamExamples } from './team';
import { programExamples } from './program';
import { campaignsExamples } from './campaigns';
import { storesExamples } from './stores';
import { membersExamples } from './members';
import { ordersExamples } from './orders';
import { webhooksExamples } from './webhooks';
import { objectsExamples } from './objects';
import { catalogExamples } from './catalog';
import { tagsExamples } from './tags';
import { capturesExamples } from './captures';
import { couponsExamples } from './coupons';
import { rewardsExamples } from './rewards';
import { ambassadorExamples } from './ambassador';
import { trackingExamples } from './tracking';
import { auditExamples } from './audit';
import { mcpExamples } from './mcp';
import { portalExamples } from './portal';
import { walletExamples, walletPassesExamples } from './wallet';
import { exportsExamples } from './exports';
import { privacyExamples } from './privacy';
import { overviewExamples } from './overview';
import { importsExamples } from './imports';
import type { AreaExamples } from './types';

type Declaration = (typeof DECLARATIONS)[number];

/**
 * The documented examples of every operation, per area: an area or operation left out, a request
 * body or JSON success response without its example, or a field its schema does not have, does not
 * compile. The OpenAPI document shows them (`shared/http/openapi-examples.ts`).
 */
export const EXAMPLES: { [D in Declaration as D['area']]: AreaExamples<D> } = {
  system: systemExamples,
  auth: authExamples,
  'api-keys': apiKeysExamples,
  team: teamExamples,
  program: programExamples,
  campaigns: campaignsExamples,
  stores: storesExamples,
  members: membersExamples,
  orders: ordersExamples,
  webhooks: webhooksExamples,
  objects: objectsExamples,
  catalog: catalogExamples,
  tags: tagsExamples,
  captures: capturesExamples,
  coupons: couponsExamples,
  rewards: rewardsExamples,
  ambassador: ambassadorExamples,
  tracking: trackingExamples,
  audit: auditExamples,
  mcp: mcpExamples,
  portal: portalExamples,
  wallet: walletExamples,
  'wallet-passes': walletPassesExamples,
  exports: exportsExamples,
  privacy: privacyExamples,
  overview: overviewExamples,
  imports: importsExamples,
};

/** The examples of one operation by operationId (undefined for an operation no area declares). */
export function examplesOf(
  operationId: string,
): { request?: unknown; query?: Record<string, unknown>; params?: Record<string, unknown>; responses: Record<number, unknown>; summary?: string } | undefined {
  for (const area of Object.values(EXAMPLES)) {
    const found = (area as Record<string, unknown>)[operationId];
    if (found) return found as ReturnType<typeof examplesOf>;
  }
  return undefined;
}
