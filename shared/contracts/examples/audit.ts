import type { auditArea } from '../audit';
import type { AreaExamples } from './types';
import * as W from './world';

export const auditExamples: AreaExamples<typeof auditArea> = {
  listAuditEntries: {
    query: { action: "workspace.created", actor: "TODO_actor", from: "2026-03-14T09:30:00.000Z", to: "2026-03-14T09:30:00.000Z" },
    responses: {
      200: {
        data: [W.auditEntry],
        nextCursor: "TODO_nextCursor",
      },
    },
  },
};
