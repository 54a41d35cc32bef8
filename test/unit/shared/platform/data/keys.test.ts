import { describe, expect, it } from 'vitest';
import { ENTITIES, indexKeyAttributes, indexKeysOf, indexPartition, indexSortKey, keyOf, seqKey, skPrefix } from '../../../../../shared/platform/data/keys';

describe('key layouts', () => {
  it('every tenant entity is keyed by the workspace first', () => {
    for (const [name, layout] of Object.entries(ENTITIES)) {
      if ('global' in layout || 'local' in layout || 'scheduler' in layout || 'preflight' in layout) continue;
      expect(layout.pk, name).toMatch(/^WS#\{workspaceId\}/);
      for (const gsi of ['gsi1', 'gsi2', 'gsi3'] as const) {
        const t = (layout as Partial<Record<'gsi1' | 'gsi2' | 'gsi3', { pk: string }>>)[gsi];
        if (t) expect(t.pk, `${name}.${gsi}`).toMatch(/^WS#\{workspaceId\}#/);
      }
    }
  });

  it('the only local-runtime entity is the stream poller state (queue messages live in the local queue database)', () => {
    const local = Object.entries(ENTITIES)
      .filter(([, l]) => 'local' in l)
      .map(([n]) => n)
      .sort();
    expect(local).toEqual(['localStreamCheckpoint']);
  });

  it('the only global entities are credential lookups, keyed by a hash or the login e-mail', () => {
    const global = Object.entries(ENTITIES).filter(([, l]) => 'global' in l);
    expect(global.map(([n]) => n).sort()).toEqual([
      'apiKeyHash',
      'consumerSession',
      'invitationToken',
      'loginEmail',
      'loginThrottle',
      'mfaChallenge',
      'resetToken',
      'session',
      'walletDevice',
      'walletSerial',
    ]);
    for (const [, layout] of global) expect(layout.pk).toMatch(/\{(keyHash|tokenHash|email|emailHash|serialHash|deviceHash)\}/);
  });

  it('the only scheduler indexes are the export schedules and program due-work pointers: one partition each, ids only, no data', () => {
    const scheduler = Object.entries(ENTITIES).filter(([, l]) => 'scheduler' in l);
    expect(scheduler.map(([n]) => n)).toEqual(['exportScheduleIndex', 'programDueIndex']);
    const [[, exports], [, program]] = scheduler as [[string, { pk: string; sk: string }], [string, { pk: string; sk: string }]];
    expect(exports.pk).toBe('EXPORT_SCHEDULES');
    expect(exports.sk).toBe('{workspaceId}#{scheduleId}');
    expect(program.pk).toBe('PROGRAM_DUE');
    expect(program.sk).toBe('{workspaceId}');
    for (const [, layout] of scheduler) expect(Object.keys(layout).sort()).toEqual(['pk', 'scheduler', 'sk']);
  });

  it('the only preflight index is the allowed-origins pointer: keyed by the origin hash, the workspace id only', () => {
    const preflight = Object.entries(ENTITIES).filter(([, l]) => 'preflight' in l);
    expect(preflight.map(([n]) => n)).toEqual(['corsOriginIndex']);
    const [, layout] = preflight[0]!;
    expect(layout.pk).toBe('CORSORIGIN#{originHash}');
    expect(layout.sk).toBe('{workspaceId}');
    expect(Object.keys(layout).sort()).toEqual(['pk', 'preflight', 'sk']);
  });

  it('fills templates and refuses a missing part', () => {
    expect(keyOf('user', { workspaceId: 'ws_1', userId: 'usr_2' })).toEqual({ pk: 'WS#ws_1', sk: 'USER#usr_2' });
    expect(() => keyOf('user', { workspaceId: '', userId: 'usr_2' })).toThrow(/workspaceId/);
    expect(skPrefix('apiKey')).toBe('APIKEY#');
    expect(skPrefix('workspace')).toBe('WORKSPACE');
  });

  it('fills one GSI sort key, and lists the GSI key attributes an entity carries', () => {
    expect(indexSortKey('objectRecord', 'gsi2', { updatedAt: '2026-01-02T03:04:05.000Z', recordId: 'rec_1' })).toEqual({
      attribute: 'gsi2sk',
      value: 'U#2026-01-02T03:04:05.000Z#rec_1',
    });
    expect(indexSortKey('objectRecord', 'gsi3', { titleKey: '2#', recordId: 'rec_1' })).toEqual({ attribute: 'gsi3sk', value: 'T#2##rec_1' });
    expect(() => indexSortKey('objectRecord', 'gsi3', { recordId: 'rec_1' })).toThrow(/titleKey/);
    expect(() => indexSortKey('member', 'gsi2', { memberId: 'mbr_1' })).toThrow(/no gsi2/);
    expect(indexKeyAttributes('objectRecord')).toEqual(['gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'gsi3pk', 'gsi3sk']);
    expect(indexKeyAttributes('member')).toEqual(['gsi1pk', 'gsi1sk']);
    expect(indexKeyAttributes('user')).toEqual([]);
  });

  it('refuses a key part that is absent, not only an empty one, naming the part and the template', () => {
    expect(() => keyOf('user', { workspaceId: 'ws_1' } as never)).toThrow('key part userId missing for USER#{userId}');
    expect(() => keyOf('member', { memberId: 'mbr_1' } as never)).toThrow('key part workspaceId missing for WS#{workspaceId}#MEMBER#{memberId}');
    expect(() => keyOf('user', { workspaceId: 'ws_1', userId: '' })).toThrow('key part userId missing for USER#{userId}');
  });

  it('fills every placeholder of a template, numbers included', () => {
    expect(keyOf('ledgerEntry', { workspaceId: 'ws_1', memberId: 'mbr_2', seq: seqKey(7) })).toEqual({ pk: 'WS#ws_1#MEMBER#mbr_2', sk: 'LEDGER#000000000007' });
    expect(keyOf('webhookAttempt', { workspaceId: 'ws_1', endpointId: 'whe_2', at: '2026-01-02T03:04:05.000Z', deliveryId: 'dlv_3', attempt: 2 })).toEqual({
      pk: 'WS#ws_1#WEBHOOK#whe_2',
      sk: 'ATTEMPT#2026-01-02T03:04:05.000Z#dlv_3#2',
    });
    expect(keyOf('couponPoolCodes', { workspaceId: 'ws_1', poolId: 'cpl_2', chunk: 0 })).toEqual({ pk: 'WS#ws_1#CPOOL#cpl_2#CODES#0', sk: 'CODES' });
  });

  it('indexKeysOf fills exactly the GSIs the entity has', () => {
    expect(indexKeysOf('order', { workspaceId: 'ws_1', memberId: 'mbr_2', occurredAt: '2026-01-02T03:04:05Z', orderId: 'ord_3' })).toEqual({
      gsi1pk: 'WS#ws_1#ORDERS',
      gsi1sk: '2026-01-02T03:04:05Z#ord_3',
      gsi2pk: 'WS#ws_1#MEMBER#mbr_2#ORDERS',
      gsi2sk: '2026-01-02T03:04:05Z#ord_3',
    });
    expect(indexKeysOf('product', { workspaceId: 'ws_1', productId: 'prd_2', brandId: 'brd_3' })).toEqual({
      gsi1pk: 'WS#ws_1#PRODUCTS',
      gsi1sk: 'prd_2',
      gsi3pk: 'WS#ws_1#BRAND#brd_3#PRODUCTS',
      gsi3sk: 'prd_2',
    });
    expect(indexKeysOf('coupon', { workspaceId: 'ws_1', couponId: 'cpn_2', memberId: 'mbr_3', poolId: 'cpl_4' })).toEqual({
      gsi1pk: 'WS#ws_1#COUPONS',
      gsi1sk: 'cpn_2',
      gsi2pk: 'WS#ws_1#MEMBER#mbr_3#COUPONS',
      gsi2sk: 'cpn_2',
      gsi3pk: 'WS#ws_1#CPOOL#cpl_4#COUPONS',
      gsi3sk: 'cpn_2',
    });
    expect(indexKeysOf('user', {} as never)).toEqual({});
    expect(() => indexKeysOf('product', { workspaceId: 'ws_1', productId: 'prd_2' } as never)).toThrow('key part brandId missing');
  });

  it('indexPartition is the partition key of one GSI, and refuses a GSI the entity lacks', () => {
    expect(indexPartition('coupon', 'gsi3', { workspaceId: 'ws_1', poolId: 'cpl_4' })).toBe('WS#ws_1#CPOOL#cpl_4#COUPONS');
    expect(indexPartition('member', 'gsi1', { workspaceId: 'ws_1' })).toBe('WS#ws_1#MEMBERS');
    expect(indexPartition('objectRecord', 'gsi2', { workspaceId: 'ws_1', type: 'repair_job' })).toBe('WS#ws_1#OBJ#repair_job');
    expect(() => indexPartition('product', 'gsi2', { workspaceId: 'ws_1' })).toThrow('product has no gsi2');
    expect(() => indexPartition('coupon', 'gsi3', { workspaceId: 'ws_1' })).toThrow('key part poolId missing');
  });

  it('skPrefix is the sort key up to its first placeholder', () => {
    expect(skPrefix('webhookAttempt')).toBe('ATTEMPT#');
    expect(skPrefix('objectCounter')).toBe('');
    expect(skPrefix('order')).toBe('ORDER');
  });

  it('seqKey: 12 digits, zero-padded, so the string order is the number order', () => {
    expect(seqKey(0)).toBe('000000000000');
    expect(seqKey(42)).toBe('000000000042');
    expect(seqKey(999_999_999_999)).toBe('999999999999');
    expect([seqKey(10), seqKey(9), seqKey(100)].sort()).toEqual(['000000000009', '000000000010', '000000000100']);
  });
});
