import type * as z from 'zod';
import type { trackEventSchema, trackingArea } from '../../tracking';
import type { AreaExamples } from './types';
import { ids, trackEventResult, trackingStats } from './world';

export const trackingExamples: AreaExamples<typeof trackingArea> = {
  trackEvents: {
    summary: 'Two storefront events of one visit',
    request: {
      events: [
        {
          eventId: 'web-7f3a2c91',
          memberId: ids.member,
          type: 'page_view',
          occurredAt: '2026-03-14T11:58:10+01:00',
          properties: { path: '/products/bean-eth-250' },
        },
        {
          eventId: 'web-7f3a2c92',
          memberId: ids.member,
          type: 'add_to_cart',
          occurredAt: '2026-03-14T11:59:42+01:00',
          properties: { sku: 'BEAN-ETH-250', quantity: 2 },
        },
      ] satisfies z.input<typeof trackEventSchema>[],
    },
    responses: {
      200: {
        data: {
          results: [trackEventResult, { index: 1, eventId: 'web-7f3a2c92', outcome: 'accepted', error: null }],
          summary: { accepted: 2, duplicate: 0, failed: 0 },
        },
      },
    },
  },
  getTrackingStats: {
    summary: 'Page views per day of one week',
    query: { from: '2026-03-09', to: '2026-03-15', type: 'page_view' },
    responses: { 200: { data: trackingStats } },
  },
};
