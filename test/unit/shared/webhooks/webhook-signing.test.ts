import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it, vi } from 'vitest';
import { parseRetryAfter, retryDelaySeconds } from '../../../../shared/webhooks/backoff';
import { classify } from '../../../../shared/webhooks/delivery';
import { deliveryIdOf } from '../../../../shared/webhooks/delivery-id';
import { newSecret, signatureHeader, signingSecrets } from '../../../../shared/webhooks/signing';

const secret = (value: string, expiresAt: number | null = null) => ({ value, createdAt: '2026-01-01T00:00:00.000Z', expiresAt });

describe('webhook signatures (checked with the standardwebhooks reference library)', () => {
  it('every signature verifies with the reference implementation', () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 1_600_000_000, max: 2_000_000_000 }), (body, ts) => {
        const s = newSecret();
        const id = 'evt_01j9z3k4m5n6p7q8r9s0t1v2w3';
        const header = signatureHeader([secret(s)], id, ts, body);
        expect(header).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
        expect(header).toBe(new Webhook(s).sign(id, new Date(ts * 1000), body));
      }),
      { numRuns: 50 },
    );
  });

  it('during a rotation both secrets sign; each verifies; after the overlap only the new one', () => {
    const [oldS, newS] = [newSecret(), newSecret()];
    const now = 1_800_000_000;
    const secrets = [secret(newS), secret(oldS, now + 60)];
    const body = '{"id":"evt_1"}';
    const header = signatureHeader(signingSecrets(secrets, now), 'evt_1', now, body);
    expect(header.split(' ')).toHaveLength(2);
    const headers = { 'webhook-id': 'evt_1', 'webhook-timestamp': String(now), 'webhook-signature': header };
    const realNow = Date.now;
    try {
      Date.now = () => now * 1000;
      expect(() => new Webhook(oldS).verify(body, headers)).not.toThrow();
      expect(() => new Webhook(newS).verify(body, headers)).not.toThrow();
      const later = now + 61;
      const afterHeader = signatureHeader(signingSecrets(secrets, later), 'evt_1', later, body);
      expect(afterHeader.split(' ')).toHaveLength(1);
      Date.now = () => later * 1000;
      const afterHeaders = { 'webhook-id': 'evt_1', 'webhook-timestamp': String(later), 'webhook-signature': afterHeader };
      expect(() => new Webhook(newS).verify(body, afterHeaders)).not.toThrow();
      expect(() => new Webhook(oldS).verify(body, afterHeaders)).toThrow();
    } finally {
      Date.now = realNow;
    }
  });

  it('a previous secret signs until its expiry second, not at it', () => {
    const current = secret('whsec_current');
    const previous = secret('whsec_previous', 1_800_000_000);
    expect(signingSecrets([current, previous], 1_799_999_999)).toEqual([current, previous]);
    expect(signingSecrets([current, previous], 1_800_000_000)).toEqual([current]);
    expect(signingSecrets([current, previous], 1_800_000_001)).toEqual([current]);
  });

  it('secrets are whsec_ + 32 random bytes', () => {
    const s = newSecret();
    expect(s).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(s.slice(6), 'base64')).toHaveLength(32);
  });
});

describe('retry schedule', () => {
  const settings = { backoffBaseSeconds: 30, backoffCapSeconds: 6 * 3600 };

  it('full jitter stays within [0, min(cap, base * 2^(n-1))] and Retry-After is a floor within the cap', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 30 }),
        fc.double({ min: 0, max: 0.999999, noNaN: true }),
        fc.option(fc.integer({ min: 0, max: 100_000 }), { nil: undefined }),
        (n, r, retryAfter) => {
          const d = retryDelaySeconds(n, settings, retryAfter, () => r);
          const ceiling = Math.min(settings.backoffCapSeconds, 30 * 2 ** (n - 1));
          expect(d).toBeGreaterThanOrEqual(0);
          expect(d).toBeLessThanOrEqual(Math.max(ceiling, Math.min(settings.backoffCapSeconds, retryAfter ?? 0)));
          if (retryAfter !== undefined) expect(d).toBeGreaterThanOrEqual(Math.min(settings.backoffCapSeconds, retryAfter));
        },
      ),
    );
  });

  it('waits base x 2^(n-1) scaled by the random draw, growing until the cap', () => {
    const half = () => 0.5;
    expect([1, 2, 3, 4, 10, 11, 12, 30].map((n) => retryDelaySeconds(n, settings, undefined, half))).toEqual([15, 30, 60, 120, 7680, 10_800, 10_800, 10_800]);
    expect(retryDelaySeconds(0, settings, undefined, half)).toBe(15); // attempt numbers start at 1
    expect(retryDelaySeconds(1, settings, undefined, () => 0)).toBe(0);
    expect(retryDelaySeconds(1, settings, undefined, () => 0.999)).toBe(30); // 29.97, rounded up to whole seconds
    expect(retryDelaySeconds(3, settings, undefined, () => 0.1)).toBe(12);
  });

  it('draws the jitter from Math.random by default', () => {
    const random = vi.spyOn(Math, 'random').mockReturnValue(0.25);
    try {
      expect(retryDelaySeconds(3, settings)).toBe(30);
      expect(random).toHaveBeenCalledTimes(1);
    } finally {
      random.mockRestore();
    }
  });

  it('Retry-After is a floor under the jitter and is itself capped', () => {
    const half = () => 0.5;
    expect(retryDelaySeconds(1, settings, 100, half)).toBe(100);
    expect(retryDelaySeconds(1, settings, 5, half)).toBe(15); // the jitter is already longer
    expect(retryDelaySeconds(1, settings, 0, half)).toBe(15);
    expect(retryDelaySeconds(1, settings, 100_000, half)).toBe(6 * 3600);
    expect(retryDelaySeconds(20, settings, 100_000, () => 0)).toBe(6 * 3600);
  });

  it('parses Retry-After exactly: delta-seconds, or an HTTP date relative to now, rounded up', () => {
    const at = Date.parse('Wed, 21 Oct 2026 07:28:00 GMT');
    expect(parseRetryAfter('Wed, 21 Oct 2026 07:28:00 GMT', at - 10_000)).toBe(10);
    expect(parseRetryAfter('Wed, 21 Oct 2026 07:28:00 GMT', at - 9_500)).toBe(10);
    expect(parseRetryAfter('Wed, 21 Oct 2026 07:28:00 GMT', at - 120_000)).toBe(120);
    expect(parseRetryAfter('Wed, 21 Oct 2026 07:28:00 GMT', at + 5_000)).toBe(0); // already past: retry now
    expect(parseRetryAfter(' 120 ')).toBe(120);
    expect(parseRetryAfter('0')).toBe(0);
    expect(parseRetryAfter('')).toBeUndefined();
    expect(parseRetryAfter('12abc')).toBeUndefined();
    expect(parseRetryAfter('abc12')).toBeUndefined();
  });

  it('parses Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter('120')).toBe(120);
    expect(parseRetryAfter(new Date(Date.now() + 10_000).toUTCString())).toBeGreaterThanOrEqual(9);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
});

describe('outcome classification (spec 3.3)', () => {
  const response = (status: number, headers: Record<string, string> = {}) => ({ kind: 'response' as const, status, headers, bodyExcerpt: '', durationMs: 5 });

  it('2xx delivered; 429, 5xx, time-outs and connection errors retried; 3xx and other 4xx failed', () => {
    for (const s of [200, 201, 204, 299]) expect(classify(response(s)).kind).toBe('delivered');
    for (const s of [429, 500, 502, 503, 504]) expect(classify(response(s)).kind).toBe('retry');
    for (const s of [301, 302, 307, 400, 401, 404, 410, 422]) expect(classify(response(s)).kind).toBe('failed');
    expect(classify({ kind: 'error', reason: 'ECONNREFUSED', timedOut: false, durationMs: 1 }).kind).toBe('retry');
    expect(classify({ kind: 'error', reason: 'deadline', timedOut: true, durationMs: 1 }).kind).toBe('retry');
    expect(classify({ kind: 'refused', reason: '10.0.0.1 is private', durationMs: 0 })).toEqual({ kind: 'failed', error: 'refused: 10.0.0.1 is private' });
  });

  it('the 2xx range is exactly 200-299: 1xx and 300 are not delivered', () => {
    expect(classify(response(300))).toEqual({ kind: 'failed', error: 'redirects are not followed' });
    expect(classify(response(399))).toEqual({ kind: 'failed', error: 'redirects are not followed' });
    expect(classify(response(301))).toEqual({ kind: 'failed', error: 'redirects are not followed' });
    expect(classify(response(199))).toEqual({ kind: 'failed', error: null });
    expect(classify(response(100))).toEqual({ kind: 'failed', error: null });
    expect(classify(response(200))).toEqual({ kind: 'delivered' });
    expect(classify(response(299))).toEqual({ kind: 'delivered' });
  });

  it('other 4xx fail without a message; 429 and every 5xx retry', () => {
    for (const s of [400, 404, 428, 430, 499]) expect(classify(response(s, { 'retry-after': '5' })), String(s)).toEqual({ kind: 'failed', error: null });
    for (const s of [500, 501, 502, 504, 599]) expect(classify(response(s, { 'retry-after': '5' })), String(s)).toStrictEqual({ kind: 'retry', error: null });
  });

  it('names time-outs and passes connection errors on as they are', () => {
    expect(classify({ kind: 'error', reason: 'no answer within 10000 ms', timedOut: true, durationMs: 1 })).toEqual({
      kind: 'retry',
      error: 'timed out: no answer within 10000 ms',
    });
    expect(classify({ kind: 'error', reason: 'connection refused by 1.2.3.4:443', timedOut: false, durationMs: 1 })).toEqual({
      kind: 'retry',
      error: 'connection refused by 1.2.3.4:443',
    });
  });

  it('reads a Retry-After date against the attempt time', () => {
    const now = Date.parse('2026-10-21T07:27:00Z');
    expect(classify(response(503, { 'retry-after': 'Wed, 21 Oct 2026 07:28:00 GMT' }), now)).toStrictEqual({
      kind: 'retry',
      error: null,
      retryAfterSeconds: 60,
    });
    expect(classify(response(429), now)).toStrictEqual({ kind: 'retry', error: null, retryAfterSeconds: undefined });
  });

  it('honours Retry-After on 429 and 503 only', () => {
    expect(classify(response(429, { 'retry-after': '7' }))).toMatchObject({ kind: 'retry', retryAfterSeconds: 7 });
    expect(classify(response(503, { 'retry-after': '9' }))).toMatchObject({ kind: 'retry', retryAfterSeconds: 9 });
    expect(classify(response(500, { 'retry-after': '9' }))).not.toHaveProperty('retryAfterSeconds');
  });

  it('one event to one endpoint has one stable delivery id', () => {
    expect(deliveryIdOf('evt_1', 'whe_1')).toBe(deliveryIdOf('evt_1', 'whe_1'));
    expect(deliveryIdOf('evt_1', 'whe_1')).not.toBe(deliveryIdOf('evt_1', 'whe_2'));
    expect(deliveryIdOf('evt_1', 'whe_1')).toMatch(/^dlv_[0-9a-z]{26}$/);
  });
});
