import type { apiKeysArea } from '../api-keys';
import type { AreaExamples } from './types';
import * as W from './world';

export const apiKeysExamples: AreaExamples<typeof apiKeysArea> = {
  createApiKey: {
    request: {
      name: "TODO_name",
      preset: "read-only",
      scopes: ["stores:read"],
    },
    responses: {
      201: {
        data: {
          id: "TODO_id",
          name: "TODO_name",
          scopes: ["stores:read"],
          prefix: "TODO_prefix",
          createdAt: "2026-03-14T09:30:00.000Z",
          lastUsedAt: "2026-03-14T09:30:00.000Z",
          createdBy: "TODO_createdBy",
          key: "TODO_key",
        },
      },
    },
  },
  listApiKeys: {
    responses: {
      200: {
        data: [W.apiKey],
        nextCursor: "TODO_nextCursor",
      },
    },
  },
  revokeApiKey: {
    params: { id: "TODO_id" },
    responses: {

    },
  },
};
