import * as z from 'zod';
import { isoDateTime } from '../platform/validation/common';
import { ID_PATTERN } from '../platform/ids';
import { pageQueryShape } from '../platform/validation/pagination';
import { AUDIT_ACTIONS, AUDIT_FAILURE_REASONS, AUDIT_OUTCOMES, AUDIT_TARGET_TYPES } from './entities';
import { PLAIN_VALUE } from './entry';

export const auditActionSchema = z.enum(AUDIT_ACTIONS).describe('An action of the audit catalog');

const actorSchema = z
  .discriminatedUnion('type', [
    z.object({
      type: z.literal('user'),
      id: z.string().describe('usr_...'),
      name: z.string().nullable().describe('The team member’s display name as it is now; null without one, or once they left the team'),
      email: z.string().nullable().describe('The team member’s login e-mail as it is now; null once they left the team'),
    }),
    z.object({
      type: z.literal('apiKey'),
      id: z.string().describe('key_...'),
      name: z.string().nullable().describe('The key’s name (a revoked key keeps it); null if the key is unknown'),
      prefix: z.string().nullable().describe('The first characters of the key, as the key list shows them'),
    }),
    z.object({ type: z.literal('anonymous') }),
  ])
  .describe(
    'Who acted: a user (session), an API key, or anonymous (nothing proved, e.g. a failed login). Names, e-mails and prefixes are looked up when the trail is read, never stored in it.',
  );

export const auditEntrySchema = z
  .object({
    id: z.string().describe('aud_...: time-ordered'),
    occurredAt: isoDateTime,
    action: auditActionSchema,
    outcome: z.enum(AUDIT_OUTCOMES),
    reason: z.enum(AUDIT_FAILURE_REASONS).nullable().describe('Why an attempt failed; null on success'),
    actor: actorSchema,
    target: z.object({
      type: z.enum(AUDIT_TARGET_TYPES),
      id: z.string().describe('The id of the thing acted on (for a program: the workspace id; for an object type: its key)'),
      href: z.string().nullable().describe('The console address that shows it (/console/...), or null where the console has none'),
    }),
    requestId: z.string().describe('The x-request-id of the request that made the change'),
    mcp: z
      .object({
        method: z.string().describe('The JSON-RPC method, e.g. tools/call'),
        tool: z.string().nullable().describe('The tool called (tools/call), else null'),
        durationMs: z.number().int().describe('How long the MCP request took'),
        errorCode: z.string().nullable().describe('For a tool error: the error code of the REST error table'),
      })
      .optional()
      .describe('Only on mcp.* entries: the call, never its arguments'),
    changes: z
      .array(
        z.object({
          field: z.string().describe('The dotted path of the field, e.g. earn.pointsPerUnit'),
          before: z.unknown().optional().describe('Its value before; absent when the field was added'),
          after: z.unknown().optional().describe('Its value after; absent when the field was removed'),
        }),
      )
      .optional()
      .describe(
        'Only on configuration changes (program rules, campaigns, rewards, CORS origins, a team member’s role): what changed, field by field. Never personal data.',
      ),
  })
  .meta({ id: 'AuditEntry' });

/** The ids an audit entry's actor can have: a user's or an API key's. */
const ACTOR_ID = new RegExp(`${ID_PATTERN('usr').source}|${ID_PATTERN('key').source}`);

/** What narrows the trail, for a page and for the CSV file alike. */
const filterShape = {
  action: auditActionSchema.optional(),
  actor: z
    .string()
    .regex(ACTOR_ID, { message: 'must be a user id (usr_...) or an API key id (key_...)' })
    .optional()
    .describe('Entries of this actor: a user id (usr_...) or an API key id (key_...)'),
  targetType: z.enum(AUDIT_TARGET_TYPES).optional().describe('Entries acting on this kind of thing'),
  targetId: z
    .string()
    .regex(PLAIN_VALUE, { message: 'must be an id' })
    .optional()
    .describe('Entries acting on the thing with this id (a member, a campaign, a reward...)'),
  from: isoDateTime.optional().describe('occurredAt >= from'),
  to: isoDateTime.optional().describe('occurredAt < to'),
};

const fromBeforeTo = (q: { from?: string | undefined; to?: string | undefined }) =>
  q.from === undefined || q.to === undefined || Date.parse(q.from) < Date.parse(q.to);

export const listAuditQuery = z.strictObject({ ...pageQueryShape, ...filterShape }).refine(fromBeforeTo, { message: 'must be after from', path: ['to'] });

export type ListAuditQuery = z.output<typeof listAuditQuery>;

export const exportAuditQuery = z.strictObject(filterShape).refine(fromBeforeTo, { message: 'must be after from', path: ['to'] });

/** The trail's filters, without the page. */
export type AuditQueryFilters = z.output<typeof exportAuditQuery>;
