import { describe, expect, it } from 'vitest';
import {
  config,
  couponSettings,
  environmentOf,
  exportSettings,
  RATE_GUARD_NUMBERS,
  rateGuardSettings,
  WEBHOOK_NUMBERS,
  webhookSettings,
} from '../../../../../shared/platform/config';

describe('static numbers with environment overrides (one mechanism)', () => {
  it('without overrides the static numbers are in force', () => {
    expect(webhookSettings({})).toEqual(config.webhooks);
    expect(rateGuardSettings({})).toEqual(config.objects.rateGuard);
  });

  it('each variable overrides exactly its own number; empty is no override', () => {
    const names = {
      maxAttempts: 'WEBHOOK_MAX_ATTEMPTS',
      backoffBaseSeconds: 'WEBHOOK_BACKOFF_BASE_SECONDS',
      backoffCapSeconds: 'WEBHOOK_BACKOFF_CAP_SECONDS',
      visibilitySeconds: 'WEBHOOK_VISIBILITY_SECONDS',
      deliveryTimeoutSeconds: 'WEBHOOK_DELIVERY_TIMEOUT_SECONDS',
      rotationOverlapSeconds: 'WEBHOOK_ROTATION_OVERLAP_SECONDS',
      disableAfterFailingSeconds: 'WEBHOOK_DISABLE_AFTER_FAILING_SECONDS',
      bulkReplayMax: 'WEBHOOK_BULK_REPLAY_MAX',
    } as const;
    expect(WEBHOOK_NUMBERS.env).toEqual(names);
    for (const [key, name] of Object.entries(names)) {
      expect(webhookSettings({ [name]: '7' })).toEqual({ ...config.webhooks, [key]: 7 });
      expect(webhookSettings({ [name]: '' })).toEqual(config.webhooks);
    }
    expect(RATE_GUARD_NUMBERS.env).toEqual({ perSecond: 'OBJECTS_RATE_PER_SECOND', burst: 'OBJECTS_RATE_BURST', timeoutMs: 'OBJECTS_RATE_GUARD_TIMEOUT_MS' });
    expect(rateGuardSettings({ OBJECTS_RATE_BURST: '3' })).toEqual({ ...config.objects.rateGuard, burst: 3 });
  });

  it('webhook numbers: any finite non-negative number, fractions included (tests shrink waits below a second)', () => {
    expect(webhookSettings({ WEBHOOK_VISIBILITY_SECONDS: '0' }).visibilitySeconds).toBe(0);
    expect(webhookSettings({ WEBHOOK_VISIBILITY_SECONDS: '0.25' }).visibilitySeconds).toBe(0.25);
    expect(() => webhookSettings({ WEBHOOK_MAX_ATTEMPTS: '-1' })).toThrow('WEBHOOK_MAX_ATTEMPTS must be a non-negative number, got -1');
    expect(() => webhookSettings({ WEBHOOK_MAX_ATTEMPTS: 'many' })).toThrow('WEBHOOK_MAX_ATTEMPTS must be a non-negative number, got many');
    expect(() => webhookSettings({ WEBHOOK_MAX_ATTEMPTS: 'Infinity' })).toThrow('must be a non-negative number, got Infinity');
  });

  it('rate-guard numbers: positive integers only', () => {
    expect(rateGuardSettings({ OBJECTS_RATE_PER_SECOND: '1' }).perSecond).toBe(1);
    expect(() => rateGuardSettings({ OBJECTS_RATE_PER_SECOND: '0' })).toThrow('OBJECTS_RATE_PER_SECOND must be a positive integer, got 0');
    expect(() => rateGuardSettings({ OBJECTS_RATE_PER_SECOND: '1.5' })).toThrow('OBJECTS_RATE_PER_SECOND must be a positive integer, got 1.5');
    expect(() => rateGuardSettings({ OBJECTS_RATE_PER_SECOND: '-3' })).toThrow('must be a positive integer, got -3');
  });

  it('coupon numbers: COUPON_RESERVE_PARALLELISM overrides the reserve parallelism, a positive integer', () => {
    expect(couponSettings({})).toEqual(config.coupons);
    expect(couponSettings({ COUPON_RESERVE_PARALLELISM: '' })).toEqual(config.coupons);
    expect(couponSettings({ COUPON_RESERVE_PARALLELISM: '3' })).toEqual({ ...config.coupons, reserveParallelism: 3 });
    expect(couponSettings({ COUPON_RESERVE_PARALLELISM: '1' }).reserveParallelism).toBe(1);
    expect(() => couponSettings({ COUPON_RESERVE_PARALLELISM: '0' })).toThrow('COUPON_RESERVE_PARALLELISM must be a positive integer, got 0');
    expect(() => couponSettings({ COUPON_RESERVE_PARALLELISM: '2.5' })).toThrow('COUPON_RESERVE_PARALLELISM must be a positive integer, got 2.5');
  });

  it('export numbers: each EXPORT_* variable overrides exactly its own number, a positive integer', () => {
    expect(exportSettings({})).toEqual(config.exports);
    const names = {
      archiveSectionCap: 'EXPORT_ARCHIVE_SECTION_CAP',
      operationalRowCap: 'EXPORT_OPERATIONAL_ROW_CAP',
      linkTtlSeconds: 'EXPORT_LINK_TTL_SECONDS',
      jobDeadlineSeconds: 'EXPORT_JOB_DEADLINE_SECONDS',
      noticeTimeoutSeconds: 'EXPORT_NOTICE_TIMEOUT_SECONDS',
    } as const;
    for (const [key, name] of Object.entries(names)) {
      expect(exportSettings({ [name]: '5' })).toEqual({ ...config.exports, [key]: 5 });
      expect(exportSettings({ [name]: '' })).toEqual(config.exports);
      expect(() => exportSettings({ [name]: '0' })).toThrow(`${name} must be a positive integer, got 0`);
    }
  });

  it('CDK writes every overridable variable with its static value', () => {
    expect(environmentOf(WEBHOOK_NUMBERS)).toEqual({
      WEBHOOK_MAX_ATTEMPTS: String(config.webhooks.maxAttempts),
      WEBHOOK_BACKOFF_BASE_SECONDS: String(config.webhooks.backoffBaseSeconds),
      WEBHOOK_BACKOFF_CAP_SECONDS: String(config.webhooks.backoffCapSeconds),
      WEBHOOK_VISIBILITY_SECONDS: String(config.webhooks.visibilitySeconds),
      WEBHOOK_DELIVERY_TIMEOUT_SECONDS: String(config.webhooks.deliveryTimeoutSeconds),
      WEBHOOK_ROTATION_OVERLAP_SECONDS: String(config.webhooks.rotationOverlapSeconds),
      WEBHOOK_DISABLE_AFTER_FAILING_SECONDS: String(config.webhooks.disableAfterFailingSeconds),
      WEBHOOK_BULK_REPLAY_MAX: String(config.webhooks.bulkReplayMax),
    });
  });
});
