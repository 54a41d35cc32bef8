import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { parseRetryAfter, retryDelaySeconds } from '../../shared/domain/webhooks/backoff';
import { classify } from '../../shared/domain/webhooks/delivery';
import { deliveryIdOf } from '../../shared/domain/webhooks/delivery-id';
import { newSecret, signatureHeader, signingSecrets } from '../../shared/domain/webhooks/signing';

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
      fc.property(fc.integer({ min: 1, max: 30 }), fc.double({ min: 0, max: 0.999999, noNaN: true }), fc.option(fc.integer({ min: 0, max: 100_000 }), { nil: undefined }), (n, r, retryAfter) => {
        const d = retryDelaySeconds(n, settings, retryAfter, () => r);
        const ceiling = Math.min(settings.backoffCapSeconds, 30 * 2 ** (n - 1));
        expect(d).toBeGreaterThanOrEqual(0);
        expect(d).toBeLessThanOrEqual(Math.max(ceiling, Math.min(settings.backoffCapSeconds, retryAfter ?? 0)));
        if (retryAfter !== undefined) expect(d).toBeGreaterThanOrEqual(Math.min(settings.backoffCapSeconds, retryAfter));
      }),
    );
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
