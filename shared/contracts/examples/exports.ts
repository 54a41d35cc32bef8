import type { exportsArea } from '../exports';
import type { AreaExamples } from './types';
import * as W from './world';

export const exportsExamples: AreaExamples<typeof exportsArea> = {
  startWorkspaceExport: {
    responses: {
      202: {
        data: {
          id: "TODO_id",
          status: "pending",
          deduped: true,
        },
      },
    },
  },
  listWorkspaceExports: {
    responses: {
      200: {
        data: {
          jobs: [W.exportJob],
          dataHandling: {
            summary: "TODO_summary",
            facts: ["TODO_facts"],
          },
        },
      },
    },
  },
  getExportDownload: {
    params: { id: "TODO_id" },
    responses: {
      200: {
        data: {
          url: "https://shop.example.com/hooks/loyalty",
        },
      },
    },
  },
  startOperationalExport: {
    request: {
      entity: "members",
      format: "csv",
      webhookUrl: "https://shop.example.com/hooks/loyalty",
    },
    responses: {
      202: {
        data: {
          id: "TODO_id",
          status: "pending",
        },
      },
    },
  },
  getOperationalExport: {
    params: { id: "TODO_id" },
    responses: {
      200: {
        data: W.operationalExportJob,
      },
    },
  },
  rotateExportSigningSecret: {
    responses: {
      201: {
        data: {
          secret: "TODO_secret",
          createdAt: "TODO_createdAt",
        },
      },
    },
  },
  createExportSchedule: {
    request: {
      entity: "members",
      format: "csv",
      frequency: "daily",
      weekday: "sunday",
      hour: 1,
      timezone: "TODO_timezone",
      webhookUrl: "https://shop.example.com/hooks/loyalty",
    },
    responses: {
      201: {
        data: W.exportSchedule,
      },
    },
  },
  listExportSchedules: {
    responses: {
      200: {
        data: [W.exportSchedule],
        nextCursor: "TODO_nextCursor",
      },
    },
  },
  deleteExportSchedule: {
    params: { id: "TODO_id" },
    responses: {

    },
  },
};
