import type { objectsArea } from '../objects';
import type { AreaExamples } from './types';
import * as W from './world';

export const objectsExamples: AreaExamples<typeof objectsArea> = {
  listObjectTypeDefinitions: {
    responses: {
      200: {
        data: [{
            type: "TODO_type",
            label: "TODO_label",
            description: "TODO_description",
            titleField: "TODO_titleField",
            fields: [{
                key: "TODO_key",
                type: "TODO_type",
                required: true,
                options: ["TODO_options"],
                label: "TODO_label",
              }],
            status: "draft",
            apiVisible: true,
            recordCount: 1,
            version: 1,
            createdAt: "2026-03-14T09:30:00.000Z",
            updatedAt: "2026-03-14T09:30:00.000Z",
          }],
      },
    },
  },
  putObjectTypeDefinition: {
    request: {
      label: "TODO_label",
      fields: [{
          key: "TODO_key",
          type: "text",
          required: true,
          options: ["TODO_options"],
          label: "TODO_label",
        }],
      titleField: "TODO_titleField",
      status: "draft",
      apiVisible: true,
      description: "TODO_description",
    },
    params: { type: "TODO_type" },
    responses: {
      200: {
        data: {
          type: "TODO_type",
          label: "TODO_label",
          description: "TODO_description",
          titleField: "TODO_titleField",
          fields: [{
              key: "TODO_key",
              type: "TODO_type",
              required: true,
              options: ["TODO_options"],
              label: "TODO_label",
            }],
          status: "draft",
          apiVisible: true,
          recordCount: 1,
          version: 1,
          createdAt: "2026-03-14T09:30:00.000Z",
          updatedAt: "2026-03-14T09:30:00.000Z",
        },
      },
    },
  },
  listObjectTypes: {
    responses: {
      200: {
        data: [{
            type: "TODO_type",
            label: "TODO_label",
            description: "TODO_description",
            titleField: "TODO_titleField",
          }],
      },
    },
  },
  getObjectType: {
    params: { type: "TODO_type" },
    responses: {
      200: {
        data: W.objectType,
      },
    },
  },
  listObjectRecords: {
    query: { offset: 1, sortBy: "created_desc", q: "TODO_q", memberId: "mbr_01jpz8k3m2q7v5x9c4t6r8w2ya" },
    params: { type: "TODO_type" },
    responses: {
      200: {
        data: [{
            id: "rec_01jpz8k3m2q7v5x9c4t6r8w2ya",
            data: {},
          }],
        total: 1,
      },
    },
  },
  createObjectRecord: {
    request: {
      data: {},
    },
    params: { type: "TODO_type" },
    responses: {
      201: {
        data: {
          id: "rec_01jpz8k3m2q7v5x9c4t6r8w2ya",
          data: {},
        },
      },
    },
  },
  getObjectRecord: {
    params: { type: "TODO_type", recordId: "rec_01jpz8k3m2q7v5x9c4t6r8w2ya" },
    responses: {
      200: {
        data: W.objectRecord,
      },
    },
  },
  updateObjectRecord: {
    request: {
      data: {},
      replace: true,
    },
    params: { type: "TODO_type", recordId: "rec_01jpz8k3m2q7v5x9c4t6r8w2ya" },
    responses: {
      200: {
        data: W.objectRecord,
      },
    },
  },
  deleteObjectRecord: {
    params: { type: "TODO_type", recordId: "rec_01jpz8k3m2q7v5x9c4t6r8w2ya" },
    responses: {

    },
  },
};
