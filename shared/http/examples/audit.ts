import type { auditArea } from '../../audit';
import type { AreaExamples } from './types';
import { auditEntry, ids } from './world';

export const auditExamples: AreaExamples<typeof auditArea> = {
  listAuditEntries: {
    summary: 'API keys one user created in March',
    query: { action: 'api_key.created', actor: ids.user, from: '2026-03-01T00:00:00Z', to: '2026-04-01T00:00:00Z', limit: 50 },
    responses: { 200: { data: [auditEntry], nextCursor: null } },
  },
  exportAuditEntries: {
    summary: 'Everything done to one campaign in March, as a file',
    query: { targetType: 'campaign', targetId: ids.campaign, from: '2026-03-01T00:00:00Z', to: '2026-04-01T00:00:00Z' },
    responses: {},
  },
};
