import { config } from '../platform/config';
import { auditEntrySchema, listAuditQuery } from './schemas';
import { pageOf } from '../platform/contract/contract';
import { declareArea } from '../platform/contract/endpoint';

/**
 * The audit trail, read-only: an area of its own so that its function can read the table and
 * nothing else (the entries are written by the areas whose changes they record, in the same
 * transaction).
 */
export const auditArea = declareArea({
  area: 'audit',
  description: 'The workspace audit trail: who changed what, when, and through which credential, newest first.',
  access: { table: 'read', secrets: ['pageCursors'] },
  endpoints: {
    listAuditEntries: {
      method: 'GET',
      path: '/api/flash/audit',
      auth: ['adminSession'],
      permission: 'audit:read',
      summary: 'The workspace audit trail, newest first',
      query: listAuditQuery,
      responses: { 200: pageOf(auditEntrySchema) },
      description:
        'Who did what, when, to what, with which outcome and in which request: sign-ins (and wrong passwords for existing accounts), password and e-mail changes, API keys, webhook endpoints, program rules, object types and every MCP call (its method, tool, outcome and duration; never its arguments). ' +
        `Never a secret, token, password, e-mail address, name or IP address. Filters: \`action\` (one of the catalog), \`actor\` (a usr_ or key_ id), \`from\`/\`to\` (occurredAt). Entries are kept ${config.audit.retentionDays} days.`,
    },
  },
});
