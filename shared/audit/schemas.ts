import * as z from 'zod';
import { isoDateTime } from '../platform/validation/common';
import { ID_PATTERN } from '../platform/ids';
import { pageQueryShape } from '../platform/validation/pagination';
import { AUDIT_ACTIONS, AUDIT_FAILURE_REASONS, AUDIT_OUTCOMES, AUDIT_TARGET_TYPES } from './entities';

export const auditActionSchema = z.enum(AUDIT_ACTIONS).describe('An action of the audit catalog');

const actorSchema = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('user'), id: z.string().describe('usr_...') }),
    z.object({ type: z.literal('apiKey'), id: z.string().describe('key_...') }),
    z.object({ type: z.literal('anonymous') }),
  ])
  .describe('Who acted: a user (session), an API key, or anonymous (nothing proved, e.g. a failed login)');

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
  })
  .meta({ id: 'AuditEntry' });

/** The ids an audit entry's actor can have: a user's or an API key's. */
const ACTOR_ID = new RegExp(`${ID_PATTERN('usr').source}|${ID_PATTERN('key').source}`);

export const listAuditQuery = z
  .strictObject({
    ...pageQueryShape,
    action: auditActionSchema.optional(),
    actor: z
      .string()
      .regex(ACTOR_ID, { message: 'must be a user id (usr_...) or an API key id (key_...)' })
      .optional()
      .describe('Entries of this actor: a user id (usr_...) or an API key id (key_...)'),
    from: isoDateTime.optional().describe('occurredAt >= from'),
    to: isoDateTime.optional().describe('occurredAt < to'),
  })
  .refine((q) => q.from === undefined || q.to === undefined || Date.parse(q.from) < Date.parse(q.to), { message: 'must be after from', path: ['to'] });

export type ListAuditQuery = z.output<typeof listAuditQuery>;
