import * as z from 'zod';
import { config } from '../config';
import { idSchema, isoDateTime } from '../domain/common';
import { dataOf, errorBody } from './contract';
import { declareArea } from './endpoint';

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
    'Member portal sessions (`fl_cs_...`): short-lived credentials bound to one member, for a portal or embed acting on that member only.',
  access: { table: 'readWrite' },
  endpoints: {
    createPortalSession: {
      method: 'POST', path: '/api/v2/members/{id}/portal-sessions', auth: ['apiKey'], scope: 'members:write', summary: 'Mint a member portal session for a member',
      params: z.object({ id: idSchema }),
      responses: { 201: dataOf(portalSessionSchema), 410: errorBody },
      description:
        `A short-lived (${config.portal.sessionTtlSeconds / 60} minutes) consumer session bound to this workspace and member, for the member portal embed. ` +
        'Consumer routes (e.g. `POST /api/consumer/wallet/issue`) take workspace and member from it. An unenrolled member gets 409, and its existing sessions stop working.',
    },
  },
});
