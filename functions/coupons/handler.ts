import { couponsContract } from '../../shared/contracts/coupons';
import * as coupons from '../../shared/domain/coupons/service';
import { defineArea } from '../../shared/http/area';
import { recorder } from '../../shared/http/idempotency';
import { principalOf } from '../../shared/http/principal';
import { created, ok } from '../../shared/http/responses';

export const handler = defineArea('coupons', couponsContract, {
  'GET /api/v2/coupons': async ({ principal, query }) => {
    const page = await coupons.listCoupons(principalOf(principal).workspaceId, query);
    return ok(page.items, { nextCursor: page.nextCursor ?? null });
  },
  'GET /api/v2/coupons/pools': async ({ principal, query }) => {
    const page = await coupons.listPools(principalOf(principal).workspaceId, query);
    return ok(page.items, { nextCursor: page.nextCursor ?? null });
  },
  'POST /api/v2/coupons/pools': async ({ principal, body, context }) =>
    created(await coupons.createPool(principalOf(principal).workspaceId, body, recorder(context, created))),
  'POST /api/v2/coupons/issue': async ({ principal, body, context }) => {
    const p = principalOf(principal);
    const actor = { apiKeyId: p.kind === 'apiKey' ? p.keyId : null };
    return created(await coupons.issueCoupon(p.workspaceId, body, actor, recorder(context, created)));
  },
  'POST /api/v2/coupons/{id}/redeem': async ({ principal, params, body, context }) =>
    ok(await coupons.redeemCoupon(principalOf(principal).workspaceId, params.id, body, recorder(context, ok))),
  'GET /api/v2/members/{id}/coupons': async ({ principal, params, query }) => {
    const page = await coupons.listMemberCoupons(principalOf(principal).workspaceId, params.id, query);
    return ok(page.items, { nextCursor: page.nextCursor ?? null });
  },
  'POST /api/v2/members/{id}/redeem-coupon': async ({ principal, params, body, context }) =>
    ok(await coupons.redeemMemberCoupon(principalOf(principal).workspaceId, params.id, body, recorder(context, ok))),
});
