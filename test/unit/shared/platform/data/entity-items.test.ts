import { describe, expect, it } from 'vitest';
import before from './entity-items.before.json';
import * as f from './entity-fixtures';
import type * as z from 'zod';
import {
  resetTokenEntity,
  resetTokenRecordSchema,
  sessionEntity,
  sessionRecordSchema,
  userEntity,
  userRecordSchema,
  workspaceEntity,
  workspaceRecordSchema,
} from '../../../../../shared/auth/entities';
import {
  brandEntity,
  brandRecordSchema,
  categoryEntity,
  categoryRecordSchema,
  productCategoryEntity,
  productEntity,
  productRecordSchema,
} from '../../../../../shared/catalog/entities';
import { createProductSteps, putBrandStep, putCategoryStep } from '../../../../../shared/catalog/repository';
import {
  codeLookupEntity,
  codeLookupRecordSchema,
  couponEntity,
  couponRecordSchema,
  poolEntity,
  poolRecordSchema,
} from '../../../../../shared/coupons/entities';
import { newCodeStep, putCouponStep, putPoolStep } from '../../../../../shared/coupons/repository';
import { exportJobEntity, exportJobRecordSchema, exportScheduleEntity, exportScheduleRecordSchema } from '../../../../../shared/exports/entities';
import { ledgerEntryEntity, ledgerEntryRecordSchema, memberEntity, memberRecordSchema } from '../../../../../shared/members/entities';
import { ledgerEntryStep } from '../../../../../shared/members/repository';
import { objectRecordEntity, recordItemSchema, objectTypeEntity, objectTypeRecordSchema } from '../../../../../shared/objects/entities';
import { putRecordStep } from '../../../../../shared/objects/repository';
import { orderEntity, orderRecordSchema } from '../../../../../shared/orders/entities';
import { putOrderStep } from '../../../../../shared/orders/repository';
import type { TransactStep } from '../../../../../shared/platform/data/transactions';
import { campaignEntity, campaignRecordSchema } from '../../../../../shared/program/entities';
import { putCampaignStep } from '../../../../../shared/campaigns/repository';
import { memberTagEntity, memberTagRecordSchema } from '../../../../../shared/tags/entities';
import { storeEntity, storeRecordSchema } from '../../../../../shared/stores/entities';
import { putStoreStep, replaceStoreStep } from '../../../../../shared/stores/repository';
import { invitationEntity, invitationRecordSchema, invitationTokenEntity, invitationTokenRecordSchema } from '../../../../../shared/team/entities';
import {
  walletBrandingEntity,
  walletBrandingRecordSchema,
  walletDeviceEntity,
  walletPassEntity,
  walletPassRecordSchema,
  walletRegistrationEntity,
  walletRegistrationRecordSchema,
  walletSerialEntity,
  walletSerialRecordSchema,
} from '../../../../../shared/wallet/entities';
import { attemptEntity, attemptRecordSchema, endpointEntity, endpointRecordSchema } from '../../../../../shared/webhooks/entities';

/**
 * The items the declarations write, against what the repositories wrote before them: the expected
 * items (entity-items.before.json) were written by the hand-built item expressions and step
 * builders the declarations replaced, from the same records (entity-fixtures.ts). Stored data: an
 * attribute more, less or renamed here changes what every reader finds.
 */
const put = (step: TransactStep) => step.op.Put!.Item as Record<string, unknown>;
const WS = f.WS;
const d = { workspaceId: WS };

const written: Record<keyof typeof before, unknown> = {
  store: put(putStoreStep(WS, f.store)),
  storeReplaced: put(replaceStoreStep(WS, f.store, 3)),
  order: put(putOrderStep(f.order)),
  ledgerEntry: put(ledgerEntryStep(WS, f.ledgerEntry)),
  pool: put(putPoolStep(f.pool)),
  coupon: put(putCouponStep(f.coupon)),
  codeLookup: put(newCodeStep(WS, 'SPR12345', f.codeLookup)),
  objectRecord: put(putRecordStep(f.objectRecord, '2#kettle')),
  product: createProductSteps(f.product).map(put),
  unbrandedProduct: createProductSteps(f.unbrandedProduct).map(put).slice(0, 1),
  category: put(putCategoryStep(WS, f.category, null)),
  brand: put(putBrandStep(WS, f.brand, 1)),
  campaign: put(putCampaignStep(WS, f.campaign)),
  objectType: objectTypeEntity.toItem(f.objectType),
  endpoint: endpointEntity.toItem(f.endpoint),
  attempt: attemptEntity.toItem(f.attempt, { ...d, endpointId: 'whe_1' }),
  exportJob: exportJobEntity.toItem(f.exportJob),
  exportSchedule: exportScheduleEntity.toItem(f.exportSchedule),
  workspace: workspaceEntity.toItem(f.workspace),
  user: userEntity.toItem(f.user),
  session: sessionEntity.toItem(f.session),
  resetToken: resetTokenEntity.toItem(f.resetToken),
  invitation: invitationEntity.toItem(f.invitation),
  invitationToken: invitationTokenEntity.toItem(f.invitationToken),
  walletPass: walletPassEntity.toItem(f.walletPass),
  walletSerial: walletSerialEntity.toItem(f.walletSerial, { serialHash: 'sh1' }),
  walletRegistration: walletRegistrationEntity.toItem(f.walletRegistration),
  walletDevice: walletDeviceEntity.toItem(
    { workspaceId: WS, memberId: 'mbr_1', serial: 'ser_1', passTypeId: 'pass.example', createdAt: f.walletRegistration.createdAt },
    { deviceHash: 'dh1' },
  ),
  walletBranding: walletBrandingEntity.toItem(f.walletBranding, d),
  memberTag: memberTagEntity.toItem({ key: 'vip', taggedAt: '2026-03-04T05:06:07.000Z' }, { ...d, memberId: 'mbr_1' }),
  member: memberEntity.toItem(f.member, { lastRequestId: 'req_9' }),
};

describe('declared entities', () => {
  it.each(Object.keys(before) as (keyof typeof before)[])('%s: the item is exactly the one written before, attribute for attribute', (name) => {
    expect(written[name]).toStrictEqual(before[name]);
    expect(JSON.stringify(written[name], Object.keys(flat(written[name])).sort())).toBe(JSON.stringify(before[name], Object.keys(flat(before[name])).sort()));
  });

  const roundTrips: [string, { fromItem(i: Record<string, unknown>): unknown }, z.ZodObject, unknown, unknown][] = [
    ['store', storeEntity, storeRecordSchema(), before.store, f.store],
    ['order', orderEntity, orderRecordSchema(), before.order, f.order],
    ['member', memberEntity, memberRecordSchema(), before.member, f.member],
    ['ledgerEntry', ledgerEntryEntity, ledgerEntryRecordSchema(), before.ledgerEntry, f.ledgerEntry],
    ['pool', poolEntity, poolRecordSchema(), before.pool, f.pool],
    ['coupon', couponEntity, couponRecordSchema(), before.coupon, f.coupon],
    ['codeLookup', codeLookupEntity, codeLookupRecordSchema(), before.codeLookup, f.codeLookup],
    ['objectRecord', objectRecordEntity, recordItemSchema(), before.objectRecord, { ...f.objectRecord, rev: 1 }],
    ['objectType', objectTypeEntity, objectTypeRecordSchema(), before.objectType, f.objectType],
    ['product', productEntity, productRecordSchema(), before.product[0], f.product],
    ['productCategory', productCategoryEntity, productRecordSchema(), before.product[2], f.product],
    ['unbrandedProduct', productEntity, productRecordSchema(), before.unbrandedProduct[0], f.unbrandedProduct],
    ['category', categoryEntity, categoryRecordSchema(), before.category, f.category],
    ['brand', brandEntity, brandRecordSchema(), before.brand, { ...f.brand, version: 2 }],
    ['campaign', campaignEntity, campaignRecordSchema(), before.campaign, f.campaign],
    ['endpoint', endpointEntity, endpointRecordSchema(), before.endpoint, f.endpoint],
    ['attempt', attemptEntity, attemptRecordSchema(), before.attempt, f.attempt],
    ['exportJob', exportJobEntity, exportJobRecordSchema(), before.exportJob, f.exportJob],
    ['exportSchedule', exportScheduleEntity, exportScheduleRecordSchema(), before.exportSchedule, f.exportSchedule],
    ['workspace', workspaceEntity, workspaceRecordSchema(), before.workspace, f.workspace],
    ['user', userEntity, userRecordSchema(), before.user, f.user],
    ['session', sessionEntity, sessionRecordSchema(), before.session, f.session],
    ['resetToken', resetTokenEntity, resetTokenRecordSchema(), before.resetToken, f.resetToken],
    ['invitation', invitationEntity, invitationRecordSchema(), before.invitation, f.invitation],
    ['invitationToken', invitationTokenEntity, invitationTokenRecordSchema(), before.invitationToken, f.invitationToken],
    ['walletPass', walletPassEntity, walletPassRecordSchema(), before.walletPass, f.walletPass],
    ['walletSerial', walletSerialEntity, walletSerialRecordSchema(), before.walletSerial, f.walletSerial],
    ['walletRegistration', walletRegistrationEntity, walletRegistrationRecordSchema(), before.walletRegistration, f.walletRegistration],
    ['walletBranding', walletBrandingEntity, walletBrandingRecordSchema(), before.walletBranding, f.walletBranding],
    ['memberTag', memberTagEntity, memberTagRecordSchema(), before.memberTag, { key: 'vip', taggedAt: '2026-03-04T05:06:07.000Z' }],
  ];
  it.each(roundTrips)('%s: the record read back is the record written, and it parses as declared', (_, entity, schema, item, record) => {
    const read = entity.fromItem(item as Record<string, unknown>);
    expect(read).toStrictEqual(record);
    // Strictly: nothing undeclared read back, unless the declaration itself admits more (a campaign: the program area owns its definition).
    expect((schema.def.catchall ? schema : schema.strict()).parse(read)).toStrictEqual(record);
  });
});

/** Every key path of a JSON value, so the comparison above also pins the attribute names at every depth. */
function flat(value: unknown, out: Record<string, true> = {}): Record<string, true> {
  if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) (out[k] = true), flat(v, out);
  return out;
}
