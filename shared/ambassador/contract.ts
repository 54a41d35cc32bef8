import * as z from 'zod';
import { idSchema } from '../platform/validation/common';
import { candidateSchema, candidatesQuery, metricsSchema, referralCodeSchema } from './schemas';
import { dataOf, pageOf, errorBody } from '../platform/contract/contract';
import { declareArea } from '../platform/contract/endpoint';

/** These routes take no query parameters: an unknown one is a 422, not silently ignored. */
const noQuery = z.strictObject({});

export const ambassadorArea = declareArea({
  area: 'ambassador',
  description:
    'The ambassador (referral) program: members who qualify as ambassadors, their referral codes, and the sign-ups and revenue their referrals bring.',
  access: { table: 'readWrite', secrets: ['pageCursors'] },
  endpoints: {
    listAmbassadorCandidates: {
      method: 'GET',
      path: '/api/v2/ambassador/candidates',
      auth: ['apiKey'],
      scope: 'ambassador:read',
      summary: 'Members who qualify as ambassadors',
      query: candidatesQuery,
      responses: { 200: pageOf(candidateSchema) },
      description:
        'Active members who qualify as ambassadors, newest first: at least `minLifetimePoints` lifetime points (default 500) or at least `minOrderCount` ' +
        'completed orders (default 3). Members who already hold a code are included, with their code and referred sign-ups. ' +
        'A page reads a bounded part of the member index, so it may be short and still carry a nextCursor.',
    },
    getAmbassadorMetrics: {
      method: 'GET',
      path: '/api/v2/ambassador/metrics',
      auth: ['apiKey'],
      scope: 'ambassador:read',
      summary: 'Referral codes, referred sign-ups and revenue',
      query: noQuery,
      responses: { 200: dataOf(metricsSchema) },
      description:
        'Codes issued and referred sign-ups are counters kept with each issue and each referred sign-up. Referred revenue sums the completed orders ' +
        '(net of refunds) of referred members per currency, computed when asked.',
    },
    issueReferralCode: {
      method: 'POST',
      path: '/api/v2/ambassador/members/{id}/issue-code',
      auth: ['apiKey'],
      scope: 'ambassador:write',
      summary: "Issue the member's referral code (idempotent)",
      idempotent: true,
      params: z.object({ id: idSchema }),
      query: noQuery,
      responses: { 201: dataOf(referralCodeSchema), 200: dataOf(referralCodeSchema), 410: errorBody },
      description:
        "Issues the member's referral code: 201 the first time (emits `ambassador.code_issued`), 200 with the same code on every later call. " +
        'Codes are unique in the workspace. An unenrolled member without a code gets 409.',
    },
  },
});
