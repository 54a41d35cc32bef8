import type { apiKeysArea } from '../../api-keys';
import type { AreaExamples } from './types';
import { apiKey, ids } from './world';

export const apiKeysExamples: AreaExamples<typeof apiKeysArea> = {
  createApiKey: {
    summary: 'A key for the checkout: members and orders only',
    request: { name: 'Checkout integration', scopes: ['members:read', 'members:write', 'orders:read', 'orders:write'] },
    responses: { 201: { data: { ...apiKey, lastUsedAt: null, key: 'fl_live_3kq9Vb7nX2mT5rW8yP1cH4jL6dF0sG9zA3eK7uQ2wN' } } },
  },
  listApiKeys: { query: { limit: 50 }, responses: { 200: { data: [apiKey], nextCursor: null } } },
  revokeApiKey: { params: { id: ids.apiKey }, responses: {} },
};
