import { ambassadorArea } from '../ambassador';
import { apiKeysArea } from '../api-keys';
import { auditArea } from '../audit';
import { authArea } from '../auth';
import { capturesArea } from '../captures';
import { catalogArea } from '../catalog';
import { couponsArea } from '../coupons';
import { rewardsArea } from '../rewards';
import { routesOf, type RouteDef } from '../platform/contract/endpoint';
import { mcpArea } from '../mcp/contract';
import { membersArea } from '../members';
import { objectsArea } from '../objects';
import { ordersArea } from '../orders';
import { programArea } from '../program';
import { campaignsArea } from '../campaigns';
import { storesArea } from '../stores';
import { systemArea } from '../system';
import { tagsArea } from '../tags';
import { teamArea } from '../team';
import { trackingArea } from '../tracking';
import { webhooksArea } from '../webhooks';
// Member portal sessions and wallet cards.
import { portalArea } from '../portal';
import { walletArea, walletPassesArea } from '../wallet';
// Data exports
import { exportsArea } from '../exports';
// Data-subject export and erasure
import { privacyArea } from '../privacy';
// The console's overview
import { overviewArea } from '../overview';
// Import jobs
import { importsArea } from '../imports';

export { routeKey, type AuthKind, type HttpMethod } from '../platform/contract/endpoint';

/**
 * Every area's declaration. Everything else is derived from this list: the route table that CDK,
 * the local server, the OpenAPI document and the route tests read, the area list, each function's
 * grants. Adding an area is one declaration file here plus one `functions/<area>/handler.ts`.
 */
export const DECLARATIONS = [
  systemArea,
  authArea,
  apiKeysArea,
  teamArea,
  programArea,
  campaignsArea,
  storesArea,
  membersArea,
  ordersArea,
  webhooksArea,
  objectsArea,
  catalogArea,
  tagsArea,
  capturesArea,
  couponsArea,
  rewardsArea,
  ambassadorArea,
  trackingArea,
  auditArea,
  // The MCP server: its own area (function), additive to the REST areas above.
  mcpArea,
  // Member portal sessions and wallet cards.
  portalArea,
  walletArea,
  walletPassesArea,
  // Data exports
  exportsArea,
  // Data-subject export and erasure
  privacyArea,
  // The console's overview
  overviewArea,
  importsArea,
] as const;

export type Area = (typeof DECLARATIONS)[number]['area'];

/** One Lambda function per area; the folder `functions/<area>/handler.ts` is its entry point. */
export const AREAS: readonly Area[] = DECLARATIONS.map((d) => d.area);

export const declarationOf = (area: Area) => DECLARATIONS.find((d) => d.area === area)!;

/** THE route table, derived from the declarations. */
export const routes: readonly RouteDef<Area>[] = DECLARATIONS.flatMap((d) => routesOf<Area>(d));

export type { RouteDef } from '../platform/contract/endpoint';

export const routesOfArea = (area: Area): RouteDef<Area>[] => routes.filter((r) => r.area === area);
