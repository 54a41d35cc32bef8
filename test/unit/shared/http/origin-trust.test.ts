import { describe, expect, it } from 'vitest';
import { fromForeignPage, fromOwnEdge, originOf } from '../../../../shared/http/origin';

const SECRET = 'x'.repeat(48);
const viaEdge = { host: 'abc.execute-api.eu-west-1.amazonaws.com', 'x-forwarded-host': 'd111.cloudfront.net' };
const event = (headers: Record<string, string>) => ({ headers });

describe('the origin header of our CloudFront distribution', () => {
  it('is the only thing that lets X-Forwarded-Host name the origin', () => {
    expect(originOf(event({ ...viaEdge, 'x-origin-verify': SECRET }), SECRET)).toBe('https://d111.cloudfront.net');
    // Without it, or with another value, the host API Gateway got counts: anyone may send X-Forwarded-Host.
    expect(originOf(event(viaEdge), SECRET)).toBe('https://abc.execute-api.eu-west-1.amazonaws.com');
    expect(originOf(event({ ...viaEdge, 'x-origin-verify': `${SECRET.slice(1)}y` }), SECRET)).toBe('https://abc.execute-api.eu-west-1.amazonaws.com');
    expect(originOf(event({ ...viaEdge, 'x-origin-verify': '' }), SECRET)).toBe('https://abc.execute-api.eu-west-1.amazonaws.com');
  });

  it('is never trusted where no secret is configured (the local runtime), whatever the header holds', () => {
    for (const sent of [undefined, '', SECRET]) {
      const headers = sent === undefined ? viaEdge : { ...viaEdge, 'x-origin-verify': sent };
      expect(fromOwnEdge(event(headers), undefined)).toBe(false);
      expect(fromOwnEdge(event(headers), '')).toBe(false);
      expect(originOf(event(headers), undefined)).toBe('https://abc.execute-api.eu-west-1.amazonaws.com');
    }
  });

  it('is compared whole, in constant time: a value of another length is refused, not an error', () => {
    expect(fromOwnEdge(event({ 'x-origin-verify': SECRET }), SECRET)).toBe(true);
    // timingSafeEqual throws on buffers of different lengths: both sides are hashed first.
    for (const sent of [SECRET.slice(0, -1), `${SECRET}x`, 'x', SECRET.toUpperCase(), ` ${SECRET}`]) {
      expect(fromOwnEdge(event({ 'x-origin-verify': sent }), SECRET), sent).toBe(false);
    }
    expect(fromOwnEdge(event({}), SECRET)).toBe(false);
    expect(fromOwnEdge({ headers: undefined as unknown as Record<string, string> }, SECRET)).toBe(false);
  });

  it('reads the secret from ORIGIN_VERIFY_SECRET by default', () => {
    const before = process.env.ORIGIN_VERIFY_SECRET;
    try {
      process.env.ORIGIN_VERIFY_SECRET = SECRET;
      expect(originOf(event({ ...viaEdge, 'x-origin-verify': SECRET }))).toBe('https://d111.cloudfront.net');
      expect(originOf(event(viaEdge))).toBe('https://abc.execute-api.eu-west-1.amazonaws.com');
    } finally {
      if (before === undefined) delete process.env.ORIGIN_VERIFY_SECRET;
      else process.env.ORIGIN_VERIFY_SECRET = before;
    }
  });
});

describe('a page of another origin', () => {
  const ours = { host: 'console.example.com' };
  it('is told by its Origin: ours passes, any other (null included) is foreign', () => {
    expect(fromForeignPage(event({ ...ours, origin: 'https://console.example.com' }))).toBe(false);
    expect(fromForeignPage(event({ ...ours, origin: 'https://evil.example' }))).toBe(true);
    expect(fromForeignPage(event({ ...ours, origin: 'http://console.example.com' }))).toBe(true);
    expect(fromForeignPage(event({ ...ours, origin: 'null' }))).toBe(true);
    expect(fromForeignPage(event({ ...ours, origin: '' }))).toBe(true);
    // Our Origin wins over what Sec-Fetch-Site says.
    expect(fromForeignPage(event({ ...ours, origin: 'https://console.example.com', 'sec-fetch-site': 'cross-site' }))).toBe(false);
  });

  it('without an Origin, by Sec-Fetch-Site; a request with neither comes from no browser', () => {
    expect(fromForeignPage(event({ ...ours, 'sec-fetch-site': 'cross-site' }))).toBe(true);
    expect(fromForeignPage(event({ ...ours, 'sec-fetch-site': 'same-site' }))).toBe(true);
    expect(fromForeignPage(event({ ...ours, 'sec-fetch-site': 'same-origin' }))).toBe(false);
    expect(fromForeignPage(event({ ...ours, 'sec-fetch-site': 'none' }))).toBe(false);
    expect(fromForeignPage(event(ours))).toBe(false);
  });

  it('is judged against the origin X-Forwarded-Host names only when our distribution sent it', () => {
    const forged = { host: 'abc.execute-api.eu-west-1.amazonaws.com', 'x-forwarded-host': 'evil.example', origin: 'https://evil.example' };
    expect(fromForeignPage(event(forged))).toBe(true);
  });
});
