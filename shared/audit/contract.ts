import { config } from '../platform/config';
import { auditEntrySchema, exportAuditQuery, listAuditQuery } from './schemas';
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
        'Who did what, when, to what, with which outcome and in which request: sign-ins (and wrong passwords for existing accounts), password and e-mail changes, team and API keys, webhook endpoints, program rules, campaigns, rewards, manual points changes, object types and every MCP call (its method, tool, outcome and duration; never its arguments). ' +
        'A configuration change (program rules, campaigns, rewards, CORS origins, a team member’s role) carries what changed, field by field (`changes`). ' +
        'The actor is named as the workspace knows them now (a team member’s name and e-mail, a key’s name and prefix), looked up at read time: entries store ids only, never a secret, token, password, e-mail address, name or IP address. ' +
        `Filters: \`action\` (one of the catalog), \`actor\` (a usr_ or key_ id), \`targetType\`/\`targetId\`, \`from\`/\`to\` (occurredAt). Entries are kept ${config.audit.retentionDays} days; none can be changed or deleted.`,
    },
    exportAuditEntries: {
      method: 'GET',
      path: '/api/flash/audit/export',
      auth: ['adminSession'],
      permission: 'audit:read',
      summary: 'The filtered audit trail as a CSV file',
      query: exportAuditQuery,
      responses: { 200: null },
      binaryResponses: { 200: 'text/csv' },
      description:
        `The entries \`GET /api/flash/audit\` lists for the same filters, newest first, at most ${config.audit.csvMaxRows} (the newest; \`X-Audit-Truncated: true\` says more may match: narrow the period for the rest), ` +
        'as `text/csv` (RFC 4180, CRLF, a header row; `Content-Disposition: attachment`): time, action, outcome, reason, the actor (type, id, name, e-mail, key prefix), the target (type, id, console address), the changes (`field: before -> after`, one per line) and the request id. A cell that a spreadsheet would run as a formula starts with a quote.',
    },
  },
});
