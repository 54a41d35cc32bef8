import { describe, expect, it } from 'vitest';
import before from './entity-items.before.json';
import * as f from './entity-fixtures';
import { resetTokenEntity, sessionEntity, userEntity, workspaceEntity } from '../../../../../shared/auth/entities';
import { brandEntity, categoryEntity, productCategoryEntity, productEntity } from '../../../../../shared/catalog/entities';
import { createProductSteps, putBrandStep, putCategoryStep } from '../../../../../shared/catalog/repository';
import { codeLookupEntity, couponEntity, poolEntity } from '../../../../../shared/coupons/entities';
import { newCodeStep, putCouponStep, putPoolStep } from '../../../../../shared/coupons/repository';
import { exportJobEntity, exportScheduleEntity } from '../../../../../shared/exports/entities';
import { ledgerEntryEntity, memberEntity } from '../../../../../shared/members/entities';
import { ledgerEntryStep } from '../../../../../shared/members/repository';
import { objectRecordEntity, objectTypeEntity } from '../../../../../shared/objects/entities';
import { putRecordStep } from '../../../../../shared/objects/repository';
import { orderEntity } from '../../../../../shared/orders/entities';
import { putOrderStep } from '../../../../../shared/orders/repository';
import type { TransactStep } from '../../../../../shared/platform/data/table';
import { campaignEntity } from '../../../../../shared/program/entities';
import { putCampaignStep } from '../../../../../shared/campaigns/repository';
import { memberTagEntity } from '../../../../../shared/tags/entities';
import { storeEntity } from '../../../../../shared/stores/entities';
import { putStoreStep, replaceStoreStep } from '../../../../../shared/stores/repository';
import { invitationEntity, invitationTokenEntity } from '../../../../../shared/team/entities';
import {
  walletBrandingEntity,
  walletDeviceEntity,
  walletPassEntity,
  walletRegistrationEntity,
  walletSerialEntity,
} from '../../../../../shared/wallet/entities';
import { attemptEntity, endpointEntity } from '../../../../../shared/webhooks/entities';

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

  const roundTrips: [string, { fromItem(i: Record<string, unknown>): unknown; parse(i: Record<string, unknown>): unknown }, unknown, unknown][] = [
    ['store', storeEntity, before.store, f.store],
    ['order', orderEntity, before.order, f.order],
    ['member', memberEntity, before.member, f.member],
    ['ledgerEntry', ledgerEntryEntity, before.ledgerEntry, f.ledgerEntry],
    ['pool', poolEntity, before.pool, f.pool],
    ['coupon', couponEntity, before.coupon, f.coupon],
    ['codeLookup', codeLookupEntity, before.codeLookup, f.codeLookup],
    ['objectRecord', objectRecordEntity, before.objectRecord, { ...f.objectRecord, rev: 1 }],
    ['objectType', objectTypeEntity, before.objectType, f.objectType],
    ['product', productEntity, before.product[0], f.product],
    ['productCategory', productCategoryEntity, before.product[2], f.product],
    ['unbrandedProduct', productEntity, before.unbrandedProduct[0], f.unbrandedProduct],
    ['category', categoryEntity, before.category, f.category],
    ['brand', brandEntity, before.brand, { ...f.brand, version: 2 }],
    ['campaign', campaignEntity, before.campaign, f.campaign],
    ['endpoint', endpointEntity, before.endpoint, f.endpoint],
    ['attempt', attemptEntity, before.attempt, f.attempt],
    ['exportJob', exportJobEntity, before.exportJob, f.exportJob],
    ['exportSchedule', exportScheduleEntity, before.exportSchedule, f.exportSchedule],
    ['workspace', workspaceEntity, before.workspace, f.workspace],
    ['user', userEntity, before.user, f.user],
    ['session', sessionEntity, before.session, f.session],
    ['resetToken', resetTokenEntity, before.resetToken, f.resetToken],
    ['invitation', invitationEntity, before.invitation, f.invitation],
    ['invitationToken', invitationTokenEntity, before.invitationToken, f.invitationToken],
    ['walletPass', walletPassEntity, before.walletPass, f.walletPass],
    ['walletSerial', walletSerialEntity, before.walletSerial, f.walletSerial],
    ['walletRegistration', walletRegistrationEntity, before.walletRegistration, f.walletRegistration],
    ['walletBranding', walletBrandingEntity, before.walletBranding, f.walletBranding],
    ['memberTag', memberTagEntity, before.memberTag, { key: 'vip', taggedAt: '2026-03-04T05:06:07.000Z' }],
  ];
  it.each(roundTrips)('%s: the record read back is the record written, and it parses as declared', (_, entity, item, record) => {
    expect(entity.fromItem(item as Record<string, unknown>)).toStrictEqual(record);
    expect(entity.parse(item as Record<string, unknown>)).toStrictEqual(record);
  });
});

/** Every key path of a JSON value, so the comparison above also pins the attribute names at every depth. */
function flat(value: unknown, out: Record<string, true> = {}): Record<string, true> {
  if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) (out[k] = true), flat(v, out);
  return out;
}
