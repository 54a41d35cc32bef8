import type { webhooksArea } from '../webhooks';
import type { AreaExamples } from './types';
import * as W from './world';

export const webhooksExamples: AreaExamples<typeof webhooksArea> = {
  createWebhookEndpoint: {
    request: {
      url: "https://shop.example.com/hooks/loyalty",
      description: "TODO_description",
      eventTypes: ["member.created"],
    },
    responses: {
      201: {
        data: {
          id: "whe_01jpz8k3m2q7v5x9c4t6r8w2ya",
          url: "https://shop.example.com/hooks/loyalty",
          description: "TODO_description",
          eventTypes: ["TODO_eventTypes"],
          status: "active",
          disabledReason: "TODO_disabledReason",
          createdAt: "2026-03-14T09:30:00.000Z",
          updatedAt: "2026-03-14T09:30:00.000Z",
          secret: "TODO_secret",
        },
      },
    },
  },
  listWebhookEndpoints: {
    responses: {
      200: {
        data: [W.webhookEndpoint],
        nextCursor: "TODO_nextCursor",
      },
    },
  },
  updateWebhookEndpoint: {
    request: {
        action: "rotate_secret",
      },
    params: { id: "TODO_id" },
    responses: {
      200: {
        data: {
          id: "whe_01jpz8k3m2q7v5x9c4t6r8w2ya",
          url: "https://shop.example.com/hooks/loyalty",
          description: "TODO_description",
          eventTypes: ["TODO_eventTypes"],
          status: "active",
          disabledReason: "TODO_disabledReason",
          createdAt: "2026-03-14T09:30:00.000Z",
          updatedAt: "2026-03-14T09:30:00.000Z",
          secret: "TODO_secret",
        },
      },
    },
  },
  deleteWebhookEndpoint: {
    params: { id: "TODO_id" },
    responses: {

    },
  },
  getEventCatalog: {
    responses: {
      200: {
        data: {
          events: [{
              event: "TODO_event",
              label: "TODO_label",
              stage: "TODO_stage",
              examplePayload: {},
            }],
          payload: {
            schema: {},
            headers: {},
          },
        },
      },
    },
  },
  listWebhookDeliveries: {
    params: { id: "TODO_id" },
    responses: {
      200: {
        data: [W.webhookAttempt],
        nextCursor: "TODO_nextCursor",
      },
    },
  },
  replayWebhookDelivery: {
    params: { id: "TODO_id", deliveryId: "att_01jpz8k3m2q7v5x9c4t6r8w2ya" },
    responses: {
      202: {
        data: {
          deliveryId: "att_01jpz8k3m2q7v5x9c4t6r8w2ya",
          eventId: "evt_01jpz8k3m2q7v5x9c4t6r8w2ya",
          state: "pending",
        },
      },
    },
  },
  testWebhookEndpoint: {
    params: { id: "TODO_id" },
    responses: {
      202: {
        data: {
          deliveryId: "att_01jpz8k3m2q7v5x9c4t6r8w2ya",
          eventId: "evt_01jpz8k3m2q7v5x9c4t6r8w2ya",
          state: "pending",
        },
      },
    },
  },
};
