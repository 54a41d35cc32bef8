import type { storesArea } from '../../stores';
import type { AreaExamples } from './types';
import { at, ids, store } from './world';

export const storesExamples: AreaExamples<typeof storesArea> = {
  listStores: { query: { status: 'active', limit: 50 }, responses: { 200: { data: [store], nextCursor: null } } },
  createStore: {
    request: {
      name: 'Northwind Coffee Berlin Mitte',
      code: 'BER-01',
      address: { line1: 'Rosenthaler Str. 40', city: 'Berlin', postalCode: '10178', country: 'DE' },
      timezone: 'Europe/Berlin',
      currency: 'EUR',
    },
    responses: { 201: { data: store } },
  },
  getStore: { params: { id: ids.store }, responses: { 200: { data: store } } },
  updateStore: {
    summary: 'Close a store',
    params: { id: ids.store },
    request: { status: 'closed' },
    responses: { 200: { data: { ...store, status: 'closed', updatedAt: at.now } } },
  },
};
