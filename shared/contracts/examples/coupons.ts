import type { couponsArea } from '../coupons';
import type { AreaExamples } from './types';
import * as W from './world';

export const couponsExamples: AreaExamples<typeof couponsArea> = {
  listCoupons: {
    query: { poolId: "cpl_01jpz8k3m2q7v5x9c4t6r8w2ya", memberId: "mbr_01jpz8k3m2q7v5x9c4t6r8w2ya", status: "issued" },
    responses: {
      200: {
        data: [W.coupon],
        nextCursor: "TODO_nextCursor",
      },
    },
  },
  listCouponPools: {
    responses: {
      200: {
        data: [W.couponPool],
        nextCursor: "TODO_nextCursor",
      },
    },
  },
  createCouponPool: {
    request: {
      name: "TODO_name",
      discount: {
            type: "percent",
            value: 1,
          },
      codeConfig: {
          mode: "generated",
          prefix: "TODO_prefix",
          length: 1,
        },
      stock: 1,
      validFrom: "2026-03-14T09:30:00.000Z",
      validUntil: "2026-03-14T09:30:00.000Z",
      perMemberLimit: 1,
      pointsCost: 120,
      active: true,
    },
    responses: {
      201: {
        data: W.couponPool,
      },
    },
  },
  issueCoupon: {
    request: {
      poolId: "cpl_01jpz8k3m2q7v5x9c4t6r8w2ya",
      memberId: "mbr_01jpz8k3m2q7v5x9c4t6r8w2ya",
    },
    responses: {
      201: {
        data: W.coupon,
      },
    },
  },
  redeemCoupon: {
    request: {
      externalOrderId: "TODO_externalOrderId",
    },
    params: { id: "TODO_id" },
    responses: {
      200: {
        data: W.coupon,
      },
    },
  },
  listMemberCoupons: {
    query: { poolId: "cpl_01jpz8k3m2q7v5x9c4t6r8w2ya", status: "issued" },
    params: { id: "TODO_id" },
    responses: {
      200: {
        data: [W.coupon],
        nextCursor: "TODO_nextCursor",
      },
    },
  },
  redeemMemberCoupon: {
    request: {
      code: "TODO_code",
      externalOrderId: "TODO_externalOrderId",
    },
    params: { id: "TODO_id" },
    responses: {
      200: {
        data: W.coupon,
      },
    },
  },
};
