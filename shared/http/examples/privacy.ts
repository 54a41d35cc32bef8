import type { privacyArea } from '../../privacy';
import type { AreaExamples } from './types';
import { at, coupon, ids, member, memberTag, objectRecord, objectType, orderEntry, refundedOrder, welcomeEntry } from './world';

export const privacyExamples: AreaExamples<typeof privacyArea> = {
  getMemberPersonalData: {
    params: { id: ids.member },
    responses: {
      200: {
        data: {
          memberId: ids.member,
          generatedAt: at.now,
          erasedAt: null,
          profile: member,
          pointsLedger: [orderEntry, welcomeEntry],
          orders: [refundedOrder],
          coupons: [coupon],
          tags: [memberTag],
          captures: [],
          trackingEvents: [
            { eventId: 'web-7f3a2c91', type: 'page_view', occurredAt: '2026-03-14T10:58:10.000Z', properties: { path: '/products/bean-eth-250' } },
          ],
          customObjectRecords: [{ type: objectType.type, ...objectRecord, personalFields: ['plate'] }],
        },
      },
    },
  },
  eraseMember: {
    params: { id: ids.member },
    responses: { 200: { data: { memberId: ids.member, erasedAt: at.now, alreadyErased: false } } },
  },
  eraseMemberInConsole: {
    params: { id: ids.member },
    responses: { 200: { data: { memberId: ids.member, erasedAt: at.now, alreadyErased: false } } },
  },
};
