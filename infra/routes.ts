import type { Scope } from '../shared/domain/api-keys/scopes';

/**
 * THE route table. CDK creates one API Gateway route per entry, the local server routes from it,
 * the handlers take auth kind and scope from it. Later capabilities add their entries here.
 */

/** How a caller proves who it is (see README "Authentication"). */
export type AuthKind = 'apiKey' | 'session' | 'adminSession' | 'consumer' | 'applePass' | 'public';

/** One Lambda function per area; the folder `functions/<area>/handler.ts` is its entry point. */
export const AREAS = ['system', 'auth', 'api-keys', 'program', 'stores', 'members', 'orders', 'webhooks', 'objects', 'catalog', 'tags', 'captures', 'coupons', 'ambassador', 'tracking'] as const;
export type Area = (typeof AREAS)[number];

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteDef {
  method: HttpMethod;
  /** API Gateway path template, e.g. `/api/v2/api-keys/{id}`. */
  path: string;
  area: Area;
  /** Accepted credentials, in order of preference. */
  auth: readonly AuthKind[];
  /** Scope an API key needs. Sessions are checked by role instead. */
  scope?: Scope;
  operationId: string;
  summary: string;
  /** Honors `Idempotency-Key` (Stripe semantics: same key + same body replays the first answer). */
  idempotent?: true;
}

export const routes: readonly RouteDef[] = [
  // Auth (spec 4.8)
  { method: 'POST', path: '/api/v2/auth/register', area: 'auth', auth: ['public'], operationId: 'register', summary: 'Create a workspace and its owner' },
  { method: 'POST', path: '/api/v2/auth/login', area: 'auth', auth: ['public'], operationId: 'login', summary: 'Start a session' },
  { method: 'GET', path: '/api/v2/auth/profile', area: 'auth', auth: ['session'], operationId: 'getProfile', summary: 'The signed-in user, workspace and session' },
  { method: 'PATCH', path: '/api/v2/auth/profile', area: 'auth', auth: ['session'], operationId: 'updateProfile', summary: 'Change name or e-mail' },
  { method: 'POST', path: '/api/v2/auth/change-password', area: 'auth', auth: ['session'], operationId: 'changePassword', summary: 'Change password; revokes other sessions' },
  { method: 'POST', path: '/api/v2/auth/forgot-password', area: 'auth', auth: ['public'], operationId: 'forgotPassword', summary: 'Mail a single-use reset token' },
  { method: 'POST', path: '/api/v2/auth/reset-password', area: 'auth', auth: ['public'], operationId: 'resetPassword', summary: 'Set a new password with a reset token' },

  // API keys (spec 4.8)
  { method: 'POST', path: '/api/v2/api-keys', area: 'api-keys', auth: ['adminSession', 'apiKey'], scope: 'api_keys:manage', operationId: 'createApiKey', summary: 'Create an API key (plaintext shown once)' },
  { method: 'GET', path: '/api/v2/api-keys', area: 'api-keys', auth: ['adminSession', 'apiKey'], scope: 'api_keys:manage', operationId: 'listApiKeys', summary: 'List API keys' },
  { method: 'DELETE', path: '/api/v2/api-keys/{id}', area: 'api-keys', auth: ['adminSession', 'apiKey'], scope: 'api_keys:manage', operationId: 'revokeApiKey', summary: 'Revoke an API key' },

  // Program rules (admin application side)
  { method: 'GET', path: '/api/flash/program', area: 'program', auth: ['adminSession'], operationId: 'getProgram', summary: 'The workspace loyalty program rules' },
  { method: 'PUT', path: '/api/flash/program', area: 'program', auth: ['adminSession'], operationId: 'putProgram', summary: 'Replace the loyalty program rules' },

  // Stores (spec 4.8)
  { method: 'GET', path: '/api/v2/stores', area: 'stores', auth: ['apiKey'], scope: 'stores:read', operationId: 'listStores', summary: 'List stores' },
  { method: 'POST', path: '/api/v2/stores', area: 'stores', auth: ['apiKey'], scope: 'stores:write', operationId: 'createStore', summary: 'Create a store', idempotent: true },
  { method: 'GET', path: '/api/v2/stores/{id}', area: 'stores', auth: ['apiKey'], scope: 'stores:read', operationId: 'getStore', summary: 'Get a store' },
  { method: 'PATCH', path: '/api/v2/stores/{id}', area: 'stores', auth: ['apiKey'], scope: 'stores:write', operationId: 'updateStore', summary: 'Update a store' },

  // Members (spec 4.8; coupons and redeem-coupon come with the coupons capability)
  { method: 'GET', path: '/api/v2/members', area: 'members', auth: ['apiKey'], scope: 'members:read', operationId: 'listMembers', summary: 'List and filter members' },
  { method: 'POST', path: '/api/v2/members', area: 'members', auth: ['apiKey'], scope: 'members:write', operationId: 'createMember', summary: 'Enrol a member', idempotent: true },
  { method: 'POST', path: '/api/v2/members/batch', area: 'members', auth: ['apiKey'], scope: 'members:write', operationId: 'upsertMembers', summary: 'Upsert up to 500 members by e-mail or externalId', idempotent: true },
  { method: 'GET', path: '/api/v2/members/{id}', area: 'members', auth: ['apiKey'], scope: 'members:read', operationId: 'getMember', summary: 'Get a member' },
  { method: 'PATCH', path: '/api/v2/members/{id}', area: 'members', auth: ['apiKey'], scope: 'members:write', operationId: 'updateMember', summary: 'Update a member' },
  { method: 'GET', path: '/api/v2/members/{id}/points', area: 'members', auth: ['apiKey'], scope: 'members:read', operationId: 'getMemberPoints', summary: 'Balance and ledger of a member' },
  { method: 'POST', path: '/api/v2/members/{id}/points', area: 'members', auth: ['apiKey'], scope: 'members:write', operationId: 'changeMemberPoints', summary: 'Manually earn or deduct points', idempotent: true },
  { method: 'GET', path: '/api/v2/members/{id}/tier', area: 'members', auth: ['apiKey'], scope: 'members:read', operationId: 'getMemberTier', summary: 'Current tier, next tier and progress' },
  { method: 'GET', path: '/api/v2/members/{id}/receipts', area: 'members', auth: ['apiKey'], scope: 'members:read', operationId: 'listMemberReceipts', summary: "The member's orders with points earned or reversed" },

  // Orders (spec 4.8)
  { method: 'GET', path: '/api/v2/orders', area: 'orders', auth: ['apiKey'], scope: 'orders:read', operationId: 'listOrders', summary: 'List and filter orders' },
  { method: 'POST', path: '/api/v2/orders', area: 'orders', auth: ['apiKey'], scope: 'orders:write', operationId: 'createOrder', summary: 'Record an order and award its points', idempotent: true },
  { method: 'POST', path: '/api/v2/orders/batch', area: 'orders', auth: ['apiKey'], scope: 'orders:write', operationId: 'reconcileOrders', summary: 'Reconcile up to 500 orders with the system of record', idempotent: true },
  { method: 'POST', path: '/api/v2/orders/{externalOrderId}/refund', area: 'orders', auth: ['apiKey'], scope: 'orders:write', operationId: 'refundOrder', summary: 'Refund an order fully or partly and reverse its points', idempotent: true },

  // Webhooks (spec 4.6) and their delivery log
  { method: 'POST', path: '/api/v2/webhooks', area: 'webhooks', auth: ['apiKey'], scope: 'webhooks:manage', operationId: 'createWebhookEndpoint', summary: 'Subscribe an endpoint to events (secret shown once)' },
  { method: 'GET', path: '/api/v2/webhooks', area: 'webhooks', auth: ['apiKey'], scope: 'webhooks:manage', operationId: 'listWebhookEndpoints', summary: 'List endpoints (without secrets)' },
  { method: 'PATCH', path: '/api/v2/webhooks/{id}', area: 'webhooks', auth: ['apiKey'], scope: 'webhooks:manage', operationId: 'updateWebhookEndpoint', summary: 'Change an endpoint, or rotate its secret' },
  { method: 'DELETE', path: '/api/v2/webhooks/{id}', area: 'webhooks', auth: ['apiKey'], scope: 'webhooks:manage', operationId: 'deleteWebhookEndpoint', summary: 'Remove an endpoint' },
  { method: 'GET', path: '/api/v2/events/catalog', area: 'webhooks', auth: ['apiKey'], scope: 'webhooks:manage', operationId: 'getEventCatalog', summary: 'The events that fire, with the envelope and signature headers' },
  { method: 'GET', path: '/api/v2/webhooks/{id}/deliveries', area: 'webhooks', auth: ['apiKey'], scope: 'webhooks:manage', operationId: 'listWebhookDeliveries', summary: 'Delivery log: one entry per attempt' },
  { method: 'POST', path: '/api/v2/webhooks/{id}/deliveries/{deliveryId}/replay', area: 'webhooks', auth: ['apiKey'], scope: 'webhooks:manage', operationId: 'replayWebhookDelivery', summary: 'Send a delivery again (same webhook-id)' },
  { method: 'POST', path: '/api/v2/webhooks/{id}/test', area: 'webhooks', auth: ['apiKey'], scope: 'webhooks:manage', operationId: 'testWebhookEndpoint', summary: 'Send a ping event to the endpoint' },

  // Custom objects: types are defined in the application (admin), records over the API (spec 4.1)
  { method: 'GET', path: '/api/flash/objects/types', area: 'objects', auth: ['adminSession'], operationId: 'listObjectTypeDefinitions', summary: 'All object types of the workspace, drafts and hidden ones included' },
  { method: 'PUT', path: '/api/flash/objects/types/{type}', area: 'objects', auth: ['adminSession'], operationId: 'putObjectTypeDefinition', summary: 'Create or replace an object type' },
  { method: 'GET', path: '/api/v2/objects', area: 'objects', auth: ['apiKey'], scope: 'objects:read', operationId: 'listObjectTypes', summary: 'Published, API-visible object types' },
  { method: 'GET', path: '/api/v2/objects/{type}', area: 'objects', auth: ['apiKey'], scope: 'objects:read', operationId: 'getObjectType', summary: 'One object type with its fields' },
  { method: 'GET', path: '/api/v2/objects/{type}/records', area: 'objects', auth: ['apiKey'], scope: 'objects:read', operationId: 'listObjectRecords', summary: 'List, filter, search and sort records' },
  { method: 'POST', path: '/api/v2/objects/{type}/records', area: 'objects', auth: ['apiKey'], scope: 'objects:write', operationId: 'createObjectRecord', summary: 'Create a record', idempotent: true },
  { method: 'GET', path: '/api/v2/objects/{type}/records/{recordId}', area: 'objects', auth: ['apiKey'], scope: 'objects:read', operationId: 'getObjectRecord', summary: 'Get a record' },
  { method: 'PATCH', path: '/api/v2/objects/{type}/records/{recordId}', area: 'objects', auth: ['apiKey'], scope: 'objects:write', operationId: 'updateObjectRecord', summary: 'Merge fields into a record, or replace it' },
  { method: 'DELETE', path: '/api/v2/objects/{type}/records/{recordId}', area: 'objects', auth: ['apiKey'], scope: 'objects:write', operationId: 'deleteObjectRecord', summary: 'Soft-delete a record' },

  // Catalog (spec 4.8)
  { method: 'GET', path: '/api/v2/products', area: 'catalog', auth: ['apiKey'], scope: 'catalog:read', operationId: 'listProducts', summary: 'List and filter products' },
  { method: 'GET', path: '/api/v2/products/{id}', area: 'catalog', auth: ['apiKey'], scope: 'catalog:read', operationId: 'getProduct', summary: 'Get a product' },
  { method: 'GET', path: '/api/v2/categories', area: 'catalog', auth: ['apiKey'], scope: 'catalog:read', operationId: 'listCategories', summary: 'List categories' },
  { method: 'GET', path: '/api/v2/brands', area: 'catalog', auth: ['apiKey'], scope: 'catalog:read', operationId: 'listBrands', summary: 'List brands' },
  { method: 'POST', path: '/api/v2/catalog/import', area: 'catalog', auth: ['apiKey'], scope: 'catalog:write', operationId: 'importCatalog', summary: 'Upsert up to 1,000 products with their categories and brands', idempotent: true },

  // Member tags (spec 4.8)
  { method: 'GET', path: '/api/v2/tags', area: 'tags', auth: ['apiKey'], scope: 'members:read', operationId: 'listTags', summary: "The workspace's tags with member counts" },
  { method: 'GET', path: '/api/v2/members/{id}/tags', area: 'tags', auth: ['apiKey'], scope: 'members:read', operationId: 'listMemberTags', summary: "A member's tags" },
  { method: 'POST', path: '/api/v2/members/{id}/tags', area: 'tags', auth: ['apiKey'], scope: 'members:write', operationId: 'tagMember', summary: 'Add tags to a member (idempotent)', idempotent: true },
  { method: 'DELETE', path: '/api/v2/members/{id}/tags/{tagKey}', area: 'tags', auth: ['apiKey'], scope: 'members:write', operationId: 'untagMember', summary: 'Remove a tag from a member' },

  // Captures (spec 4.8)
  { method: 'POST', path: '/api/v2/captures', area: 'captures', auth: ['apiKey'], scope: 'members:write', operationId: 'createCapture', summary: 'Record a lead from a form or widget; matches or creates the member', idempotent: true },

  // Coupons (spec 4.8)
  { method: 'GET', path: '/api/v2/coupons', area: 'coupons', auth: ['apiKey'], scope: 'coupons:read', operationId: 'listCoupons', summary: 'List coupons' },
  { method: 'GET', path: '/api/v2/coupons/pools', area: 'coupons', auth: ['apiKey'], scope: 'coupons:read', operationId: 'listCouponPools', summary: 'List coupon pools' },
  { method: 'POST', path: '/api/v2/coupons/pools', area: 'coupons', auth: ['apiKey'], scope: 'coupons:write', operationId: 'createCouponPool', summary: 'Create a coupon pool', idempotent: true },
  { method: 'POST', path: '/api/v2/coupons/issue', area: 'coupons', auth: ['apiKey'], scope: 'coupons:write', operationId: 'issueCoupon', summary: 'Issue a coupon from a pool to a member', idempotent: true },
  { method: 'POST', path: '/api/v2/coupons/{id}/redeem', area: 'coupons', auth: ['apiKey'], scope: 'coupons:write', operationId: 'redeemCoupon', summary: 'Redeem a coupon (at most once)', idempotent: true },
  { method: 'GET', path: '/api/v2/members/{id}/coupons', area: 'coupons', auth: ['apiKey'], scope: 'coupons:read', operationId: 'listMemberCoupons', summary: "A member's coupons" },
  { method: 'POST', path: '/api/v2/members/{id}/redeem-coupon', area: 'coupons', auth: ['apiKey'], scope: 'coupons:write', operationId: 'redeemMemberCoupon', summary: "Redeem one of the member's coupons by code", idempotent: true },

  // Ambassador program (spec 4.8)
  { method: 'GET', path: '/api/v2/ambassador/candidates', area: 'ambassador', auth: ['apiKey'], scope: 'ambassador:read', operationId: 'listAmbassadorCandidates', summary: 'Members who qualify as ambassadors' },
  { method: 'GET', path: '/api/v2/ambassador/metrics', area: 'ambassador', auth: ['apiKey'], scope: 'ambassador:read', operationId: 'getAmbassadorMetrics', summary: 'Referral codes, referred sign-ups and revenue' },
  { method: 'POST', path: '/api/v2/ambassador/members/{id}/issue-code', area: 'ambassador', auth: ['apiKey'], scope: 'ambassador:write', operationId: 'issueReferralCode', summary: "Issue the member's referral code (idempotent)", idempotent: true },

  // Tracking (spec 4.8)
  { method: 'POST', path: '/api/v2/tracking/events', area: 'tracking', auth: ['apiKey'], scope: 'tracking:write', operationId: 'trackEvents', summary: 'Ingest up to 500 behavioural events', idempotent: true },
  { method: 'GET', path: '/api/v2/tracking/stats', area: 'tracking', auth: ['apiKey'], scope: 'tracking:read', operationId: 'getTrackingStats', summary: 'Counts per event type and day' },

  // The machine-readable contract
  { method: 'GET', path: '/api/v2/openapi.json', area: 'system', auth: ['public'], operationId: 'getOpenApi', summary: 'This API as an OpenAPI 3.1 document' },
];

/** API Gateway's route key for an entry, e.g. `GET /api/v2/api-keys`. */
export const routeKey = (r: Pick<RouteDef, 'method' | 'path'>): string => `${r.method} ${r.path}`;

export const routesOfArea = (area: Area): RouteDef[] => routes.filter((r) => r.area === area);
