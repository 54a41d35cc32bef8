import { couponsArea } from '../../shared/coupons';
import * as coupons from '../../shared/coupons';
import { defineArea } from '../../shared/http/area';
import { sealed } from '../../shared/http/operation';
import { principalOf } from '../../shared/http/principal';
import { created, ok } from '../../shared/http/responses';

export const handler = defineArea(couponsArea, {
  listCoupons: async ({ principal, query }) => {
    const page = await coupons.listCoupons(principalOf(principal).workspaceId, query);
    return ok(page.items, { nextCursor: page.nextCursor ?? null });
  },
  listCouponPools: async ({ principal, query }) => {
    const page = await coupons.listPools(principalOf(principal).workspaceId, query);
    return ok(page.items, { nextCursor: page.nextCursor ?? null });
  },
  createCouponPool: sealed(created, ({ principal, body }, write) => coupons.createPool(principalOf(principal).workspaceId, body, write)),
  issueCoupon: sealed(created, ({ principal, body }, write) => {
    const p = principalOf(principal);
    const actor = { apiKeyId: p.kind === 'apiKey' ? p.keyId : null };
    return coupons.issueCoupon(p.workspaceId, body, actor, write);
  }),
  redeemCoupon: sealed(ok, ({ principal, params, body }, write) =>
    coupons.redeemCoupon(principalOf(principal).workspaceId, params.id, body, coupons.tableRedemptionStore, write),
  ),
  listMemberCoupons: async ({ principal, params, query }) => {
    const page = await coupons.listMemberCoupons(principalOf(principal).workspaceId, params.id, query);
    return ok(page.items, { nextCursor: page.nextCursor ?? null });
  },
  listMemberCouponsInConsole: async ({ principal, params, query }) => {
    const page = await coupons.listMemberCoupons(principalOf(principal).workspaceId, params.id, query);
    return ok(page.items, { nextCursor: page.nextCursor ?? null });
  },
  redeemMemberCoupon: sealed(ok, ({ principal, params, body }, write) =>
    coupons.redeemMemberCoupon(principalOf(principal).workspaceId, params.id, body, coupons.tableRedemptionStore, write),
  ),
});
