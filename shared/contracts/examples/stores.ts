import type { storesArea } from '../stores';
import type { AreaExamples } from './types';
import * as W from './world';

export const storesExamples: AreaExamples<typeof storesArea> = {
  listStores: {
    query: { status: "active" },
    responses: {
      200: {
        data: [W.store],
        nextCursor: "TODO_nextCursor",
      },
    },
  },
  createStore: {
    request: {
      name: "TODO_name",
      code: "TODO_code",
      address: {
          line1: "TODO_line1",
          line2: "TODO_line2",
          city: "TODO_city",
          postalCode: "TODO_postalCode",
          region: "TODO_region",
          country: "TODO_country",
        },
      timezone: "TODO_timezone",
      currency: "EUR",
      status: "active",
    },
    responses: {
      201: {
        data: W.store,
      },
    },
  },
  getStore: {
    params: { id: "TODO_id" },
    responses: {
      200: {
        data: W.store,
      },
    },
  },
  updateStore: {
    request: {
      name: "TODO_name",
      code: "TODO_code",
      address: {
          line1: "TODO_line1",
          line2: "TODO_line2",
          city: "TODO_city",
          postalCode: "TODO_postalCode",
          region: "TODO_region",
          country: "TODO_country",
        },
      timezone: "TODO_timezone",
      currency: "EUR",
      status: "active",
    },
    params: { id: "TODO_id" },
    responses: {
      200: {
        data: W.store,
      },
    },
  },
};
