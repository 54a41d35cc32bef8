import * as z from 'zod';
import { idSchema } from '../platform/validation/common';
import { dataOf } from '../platform/contract/contract';
import { declareArea } from '../platform/contract/endpoint';

const byId = z.object({ id: idSchema });
const erasureResult = dataOf(z.object({ memberId: z.string(), erasedAt: z.string(), alreadyErased: z.boolean() }));

/**
 * The data-subject export and erasure of one member (spec 2.6: personal data is served per member,
 * never in the workspace archive). An area of its own: it reads across the member's data and, for
 * an erasure, rewrites it.
 */
export const privacyArea = declareArea({
  area: 'privacy',
  description: 'Data-subject requests: everything the platform holds about one member, and erasure.',
  access: { table: 'readWrite', secrets: ['pageCursors'] },
  endpoints: {
    getMemberPersonalData: {
      method: 'GET',
      path: '/api/v2/members/{id}/personal-data',
      auth: ['apiKey'],
      scope: 'privacy:read',
      summary: 'Everything the platform holds about one member',
      params: byId,
      responses: {
        200: dataOf(
          z
            .object({
              memberId: z.string(),
              generatedAt: z.string(),
              erasedAt: z.string().nullable().describe('When the member was erased; null if never'),
              profile: z.record(z.string(), z.unknown()),
              pointsLedger: z.array(z.record(z.string(), z.unknown())),
              orders: z.array(z.record(z.string(), z.unknown())),
              coupons: z.array(z.record(z.string(), z.unknown())),
              tags: z.array(z.object({ key: z.string(), taggedAt: z.string().nullable() })),
              captures: z.array(z.record(z.string(), z.unknown())),
              trackingEvents: z.array(z.record(z.string(), z.unknown())),
              customObjectRecords: z.array(
                z.object({
                  type: z.string(),
                  id: z.string(),
                  data: z.record(z.string(), z.unknown()),
                  personalFields: z
                    .array(z.string())
                    .describe(
                      "Keys of the record's personal values (fields marked personal, e-mail fields, e-mail- or phone-like text): what the member's erasure clears",
                    ),
                  createdAt: z.string(),
                  updatedAt: z.string(),
                }),
              ),
            })
            .catchall(z.unknown()),
        ),
      },
      description:
        "One JSON document: profile with custom attributes, points ledger, orders, coupons, tags, captures, tracking events and the custom-object records that reference the member. Only this workspace's data. Audited (member.personal_data_exported).",
    },
    eraseMember: {
      method: 'POST',
      path: '/api/v2/members/{id}/erasure',
      auth: ['apiKey'],
      scope: 'privacy:write',
      summary: "Erase a member's personal data (idempotent)",
      params: byId,
      responses: { 200: erasureResult },
      description:
        'Removes the personal data everywhere it is stored (profile, custom attributes, capture payloads, tracking properties, ledger reasons, the personal fields of custom-object records that reference the member) and unenrolls the member; keeps the pseudonymous points ledger and order totals, so balances and reports still add up. ' +
        'Terminal: every later write to the member answers 410 MEMBER_ERASED; its e-mail and externalId are free again, so enrolling the person again makes a new member. ' +
        'Emits a thin member.erased event and is audited, once: a repeat answers the first erasedAt with alreadyErased: true.',
    },
    eraseMemberInConsole: {
      method: 'POST',
      path: '/api/flash/members/{id}/erasure',
      auth: ['adminSession'],
      permission: 'members:erase',
      summary: "Erase a member's personal data (console)",
      params: byId,
      responses: { 200: erasureResult },
      description:
        'The erasure of `POST /api/v2/members/{id}/erasure`, made by a user (the console asks the user to type the member’s e-mail or id first): the same effects, audited once as `member.erased` with the user as actor.',
    },
  },
});
