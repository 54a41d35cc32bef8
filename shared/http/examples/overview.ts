import type { overviewArea } from '../../overview/contract';
import type { AreaExamples } from './types';
import { at } from './world';

export const overviewExamples: AreaExamples<typeof overviewArea> = {
  getOverview: {
    responses: {
      200: {
        data: {
          members: 1284,
          pointsIssued: 412_900,
          pointsRedeemed: 96_250,
          orders: 3071,
          webhooks: { delivered: 214, failed: 3, dead: 0, partial: false },
          exportsRunning: 1,
          generatedAt: at.now,
        },
      },
    },
  },
};
