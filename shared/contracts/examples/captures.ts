import type { capturesArea } from '../captures';
import type { AreaExamples } from './types';
import * as W from './world';

export const capturesExamples: AreaExamples<typeof capturesArea> = {
  createCapture: {
    request: {
        email: "ada.lovelace@example.com",
        phone: "TODO_phone",
        firstName: "TODO_firstName",
        lastName: "TODO_lastName",
        source: "TODO_source",
        consents: {
          marketingEmail: true,
          marketingSms: true,
          terms: true,
        },
        attributes: {},
        referralCode: "TODO_referralCode",
      },
    responses: {
      200: {
        data: W.capture,
      },
      201: {
        data: W.capture,
      },
    },
  },
};
