import type { trackingArea } from '../tracking';
import type { AreaExamples } from './types';
import * as W from './world';

export const trackingExamples: AreaExamples<typeof trackingArea> = {
  trackEvents: {
    request: {
      events: [{}],
    },
    responses: {
      200: {
        data: {
          results: [W.trackEventResult],
          summary: {
            accepted: 1,
            duplicate: 1,
            failed: 1,
          },
        },
      },
    },
  },
  getTrackingStats: {
    query: { from: "TODO_from", to: "TODO_to", type: "TODO_type" },
    responses: {
      200: {
        data: W.trackingStats,
      },
    },
  },
};
