import * as z from 'zod';
import { config } from '../platform/config';
import { idSchema, isoDateTime } from '../platform/validation/common';
import { corsSettingsBody, corsSettingsSchema } from './cors';
import { dataOf, errorBody } from '../platform/contract/contract';
import { declareArea } from '../platform/contract/endpoint';

export const portalSessionSchema = z
  .object({
    token: z.string().describe('`fl_cs_...`: send as `Authorization: Bearer <token>` on the consumer routes. Shown only here'),
    expiresAt: isoDateTime,
  })
  .meta({ id: 'PortalSession' });

/** Member portal sessions: what the workspace's server mints for the member portal embed. */
export const portalArea = declareArea({
  area: 'portal',
  description:
    'Member portal sessions (`fl_cs_...`): short-lived credentials bound to one member, for a portal or embed acting on that member only; and the origins the embed may call the consumer routes from.',
  access: { table: 'readWrite' },
  endpoints: {
    createPortalSession: {
      method: 'POST',
      path: '/api/v2/members/{id}/portal-sessions',
      auth: ['apiKey'],
      scope: 'members:write',
      summary: 'Mint a member portal session for a member',
      params: z.object({ id: idSchema }),
      responses: { 201: dataOf(portalSessionSchema), 410: errorBody },
      description:
        `A short-lived (${config.portal.sessionTtlSeconds / 60} minutes) consumer session bound to this workspace and member, for the member portal embed. ` +
        'Consumer routes (e.g. `POST /api/consumer/wallet/issue`) take workspace and member from it. An unenrolled member gets 409, and its existing sessions stop working.',
    },
    getCorsSettings: {
      method: 'GET',
      path: '/api/flash/settings/cors',
      auth: ['adminSession'],
      permission: 'settings:cors',
      summary: 'The origins allowed to call the consumer routes from a browser',
      responses: { 200: dataOf(corsSettingsSchema) },
      description:
        "The member portal embed on the merchant's site calls the consumer routes cross-origin; only these origins get CORS headers (see the CORS section of the security documentation).",
    },
    putCorsSettings: {
      method: 'PUT',
      path: '/api/flash/settings/cors',
      auth: ['adminSession'],
      permission: 'settings:cors',
      summary: 'Replace the origins allowed to call the consumer routes from a browser',
      body: corsSettingsBody,
      responses: { 200: dataOf(corsSettingsSchema) },
      description:
        `Up to ${config.portal.cors.maxOrigins} exact origins (\`https://shop.example.com\`; \`http\` only for localhost). A preflight (OPTIONS) of a consumer route is answered for an origin any workspace allows; ` +
        'the actual response carries `Access-Control-Allow-Origin` only when the workspace of its consumer session allows the origin. Audited (portal.cors_updated).',
    },
  },
});
