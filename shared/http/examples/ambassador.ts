import type { ambassadorArea } from '../../ambassador';
import type { AreaExamples } from './types';
import { ambassadorCandidate, ambassadorMetrics, ids, referralCode } from './world';

export const ambassadorExamples: AreaExamples<typeof ambassadorArea> = {
  listAmbassadorCandidates: {
    summary: 'Members with at least 300 lifetime points or 5 orders',
    query: { minLifetimePoints: 300, minOrderCount: 5, limit: 50 },
    responses: { 200: { data: [ambassadorCandidate], nextCursor: null } },
  },
  getAmbassadorMetrics: { responses: { 200: { data: ambassadorMetrics } } },
  issueReferralCode: {
    params: { id: ids.member },
    responses: {
      201: { data: referralCode },
      // Asked again: the member's existing code.
      200: { data: { ...referralCode, referredSignups: 1 } },
    },
  },
};
