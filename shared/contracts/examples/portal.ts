import type { portalArea } from '../portal';
import type { AreaExamples } from './types';
import * as W from './world';

export const portalExamples: AreaExamples<typeof portalArea> = {
  createPortalSession: {
    params: { id: "TODO_id" },
    responses: {
      201: {
        data: W.portalSession,
      },
    },
  },
};
