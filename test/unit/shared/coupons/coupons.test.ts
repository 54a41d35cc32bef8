import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeKey, generateCode, isCodeShaped } from '../../../../shared/coupons/codes';
import { CODE_PATTERN } from '../../../../shared/coupons/schemas';
import { NEVER, poolStatus, toCoupon } from '../../../../shared/coupons/types';
import type { CouponRecord, PoolRecord } from '../../../../shared/coupons/entities';

const prefix = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_-]{0,19}$/);

describe('coupon codes', () => {
  it('generated codes keep the prefix, have the asked length of unambiguous characters, and fit the upload pattern', () => {
    fc.assert(
      fc.property(fc.option(prefix, { nil: null }), fc.integer({ min: 6, max: 32 }), (p, length) => {
        const code = generateCode(p, length);
        expect(code.startsWith(p ?? '')).toBe(true);
        const random = code.slice((p ?? '').length);
        expect(random).toMatch(new RegExp(`^[0-9ABCDEFGHJKMNPQRSTVWXYZ]{${length}}$`));
        expect(CODE_PATTERN.test(code)).toBe(true);
        expect(isCodeShaped(code)).toBe(true);
      }),
    );
  });

  it('the lookup key ignores case and cannot carry a key separator', () => {
    expect(codeKey('summer-1')).toBe(codeKey('SUMMER-1'));
    expect(codeKey('Summer-1')).toBe('SUMMER-1');
    expect(isCodeShaped('A#B#C')).toBe(false);
    expect(isCodeShaped('ab')).toBe(false);
  });
});

describe('derived states', () => {
  const pool: PoolRecord = {
    id: 'cpl_x',
    workspaceId: 'ws_x',
    name: 'P',
    discount: { type: 'percent', value: 10 },
    codeConfig: { mode: 'generated', prefix: null, length: 8 },
    stock: 5,
    issued: 0,
    redeemed: 0,
    remaining: 5,
    validFrom: '2026-01-01T00:00:00.000Z',
    validUntil: '2026-02-01T00:00:00.000Z',
    perMemberLimit: null,
    pointsCost: null,
    active: true,
    createdAt: '2025-12-01T00:00:00.000Z',
  };

  it('a pool is scheduled, active, exhausted, expired or inactive', () => {
    expect(poolStatus(pool, new Date('2025-12-31T23:59:59Z'))).toBe('scheduled');
    expect(poolStatus(pool, new Date('2026-01-15T00:00:00Z'))).toBe('active');
    expect(poolStatus({ ...pool, remaining: 0 }, new Date('2026-01-15T00:00:00Z'))).toBe('exhausted');
    expect(poolStatus(pool, new Date('2026-02-01T00:00:00Z'))).toBe('expired');
    expect(poolStatus({ ...pool, active: false }, new Date('2026-01-15T00:00:00Z'))).toBe('inactive');
  });

  it('an issued coupon reads as expired from its validUntil on; a redeemed one stays redeemed', () => {
    const coupon: CouponRecord = {
      id: 'cpn_x',
      workspaceId: 'ws_x',
      poolId: 'cpl_x',
      memberId: 'mbr_x',
      code: 'ABCDEFGH',
      status: 'issued',
      discount: pool.discount,
      validFrom: null,
      validUntil: '2026-02-01T00:00:00.000Z',
      expiresKey: '2026-02-01T00:00:00.000Z',
      pointsCost: 0,
      issuedAt: '2026-01-01T00:00:00.000Z',
      redeemedAt: null,
      redemption: null,
    };
    expect(toCoupon(coupon, new Date('2026-01-31T23:59:59Z')).status).toBe('issued');
    expect(toCoupon(coupon, new Date('2026-02-01T00:00:00Z')).status).toBe('expired');
    expect(toCoupon({ ...coupon, status: 'redeemed' }, new Date('2027-01-01T00:00:00Z')).status).toBe('redeemed');
    expect(toCoupon({ ...coupon, validUntil: null, expiresKey: NEVER }, new Date('2999-01-01T00:00:00Z')).status).toBe('issued');
  });
});
