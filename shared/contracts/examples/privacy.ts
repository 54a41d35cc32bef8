import type { privacyArea } from '../privacy';
import type { AreaExamples } from './types';

export const privacyExamples: AreaExamples<typeof privacyArea> = {
  getMemberPersonalData: {
    params: { id: "TODO_id" },
    responses: {
      200: {
        data: {
          memberId: "mbr_01jpz8k3m2q7v5x9c4t6r8w2ya",
          generatedAt: "TODO_generatedAt",
          erasedAt: "TODO_erasedAt",
          profile: {},
          pointsLedger: [{}],
          orders: [{}],
          coupons: [{}],
          tags: [{
              key: "TODO_key",
              taggedAt: "TODO_taggedAt",
            }],
          captures: [{}],
          trackingEvents: [{}],
          customObjectRecords: [{
              type: "TODO_type",
              id: "TODO_id",
              data: {},
              createdAt: "TODO_createdAt",
              updatedAt: "TODO_updatedAt",
            }],
        },
      },
    },
  },
  eraseMember: {
    params: { id: "TODO_id" },
    responses: {
      200: {
        data: {
          memberId: "mbr_01jpz8k3m2q7v5x9c4t6r8w2ya",
          erasedAt: "TODO_erasedAt",
          alreadyErased: true,
        },
      },
    },
  },
};
