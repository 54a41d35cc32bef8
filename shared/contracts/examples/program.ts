import type { programArea } from '../program';
import type { AreaExamples } from './types';
import * as W from './world';

export const programExamples: AreaExamples<typeof programArea> = {
  getProgram: {
    responses: {
      200: {
        data: W.program,
      },
    },
  },
  putProgram: {
    request: {
      earn: {
        pointsPerUnit: 1,
        rounding: "floor",
        currencyOverrides: {},
      },
      tiers: {
        metric: "lifetime_points",
        levels: [{
            key: "TODO_key",
            name: "TODO_name",
            threshold: 1,
          }],
      },
      version: 1,
    },
    responses: {
      200: {
        data: W.program,
      },
    },
  },
};
