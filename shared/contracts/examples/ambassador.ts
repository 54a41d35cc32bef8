import type { ambassadorArea } from '../ambassador';
import type { AreaExamples } from './types';
import * as W from './world';

export const ambassadorExamples: AreaExamples<typeof ambassadorArea> = {
  listAmbassadorCandidates: {
    query: { minLifetimePoints: 120, minOrderCount: 1 },
    responses: {
      200: {
        data: [W.ambassadorCandidate],
        nextCursor: "TODO_nextCursor",
      },
    },
  },
  getAmbassadorMetrics: {
    responses: {
      200: {
        data: W.ambassadorMetrics,
      },
    },
  },
  issueReferralCode: {
    params: { id: "TODO_id" },
    responses: {
      200: {
        data: W.referralCode,
      },
      201: {
        data: W.referralCode,
      },
    },
  },
};
