import type { systemArea } from '../system';
import type { AreaExamples } from './types';

export const systemExamples: AreaExamples<typeof systemArea> = {
  getOpenApi: {
    responses: {
      200: {},
    },
  },
};
