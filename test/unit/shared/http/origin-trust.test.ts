import { afterEach, describe, expect, it, vi } from 'vitest';
import { provided, provideAdapters } from '../../../../shared/platform/adapters/provided';
import { edgeSecrets, fromForeignPage, fromOwnEdge, originOf } from '../../../../shared/http/origin';
import type { SecretStore } from '../../../../shared/platform/ports/secrets';

const SECRET = 'x'.repeat(48);
const viaEdge = { host: 'abc.execute-api.eu-west-1.amazonaws.com', 'x-forwarded-host': 'd111.cloudfront.net' };
const event = (headers: Record<string, string>) => ({ headers });

describe('the origin header of our CloudFront distribution', () => {
  it('is the only thing that lets X-Forwarded-Host name the origin', () => {
    expect(originOf(event({ ...viaEdge, 'x-origin-verify': SECRET }), [SECRET])).toBe('https://d111.cloudfront.net');
    // Without it, or with another value, the host API Gateway got counts: anyone may send X-Forwarded-Host.
    expect(originOf(event(viaEdge), [SECRET])).toBe('https://abc.execute-api.eu-west-1.amazonaws.com');
    expect(originOf(event({ ...viaEdge, 'x-origin-verify': `${SECRET.slice(1)}y` }), [SECRET])).toBe('https://abc.execute-api.eu-west-1.amazonaws.com');
    expect(originOf(event({ ...viaEdge, 'x-origin-verify': '' }), [SECRET])).toBe('https://abc.execute-api.eu-west-1.amazonaws.com');
  });

  it('is never trusted where no secret is configured (the local runtime), whatever the header holds', () => {
    for (const sent of [undefined, '', SECRET]) {
      const headers = sent === undefined ? viaEdge : { ...viaEdge, 'x-origin-verify': sent };
      expect(fromOwnEdge(event(headers), [])).toBe(false);
      expect(fromOwnEdge(event(headers), [''])).toBe(false);
      expect(originOf(event(headers), [])).toBe('https://abc.execute-api.eu-west-1.amazonaws.com');
      expect(originOf(event(headers))).toBe('https://abc.execute-api.eu-west-1.amazonaws.com');
    }
  });

  it('is compared whole, in constant time: a value of another length is refused, not an error', () => {
    expect(fromOwnEdge(event({ 'x-origin-verify': SECRET }), [SECRET])).toBe(true);
    // timingSafeEqual throws on buffers of different lengths: both sides are hashed first.
    for (const sent of [SECRET.slice(0, -1), `${SECRET}x`, 'x', SECRET.toUpperCase(), ` ${SECRET}`]) {
      expect(fromOwnEdge(event({ 'x-origin-verify': sent }), [SECRET]), sent).toBe(false);
    }
    expect(fromOwnEdge(event({}), [SECRET])).toBe(false);
    expect(fromOwnEdge({ headers: undefined as unknown as Record<string, string> }, [SECRET])).toBe(false);
  });

  it('right after a rotation takes the current value and the previous one, either in any order', () => {
    const previous = 'p'.repeat(48);
    for (const accepted of [
      [SECRET, previous],
      [previous, SECRET],
    ]) {
      expect(fromOwnEdge(event({ 'x-origin-verify': SECRET }), accepted)).toBe(true);
      expect(fromOwnEdge(event({ 'x-origin-verify': previous }), accepted)).toBe(true);
      expect(fromOwnEdge(event({ 'x-origin-verify': 'q'.repeat(48) }), accepted)).toBe(false);
    }
  });
});

describe('the values a request may prove itself with (edgeSecrets)', () => {
  // The secret store is a port; these stand in for its adapters (Secrets Manager has no local peer).
  const withStore = (store: SecretStore) => provideAdapters({ secrets: store });
  const before = provided.secrets;
  afterEach(() => {
    provided.secrets = before;
    vi.restoreAllMocks();
  });

  it("are the store's current and previous values of the originVerify secret", async () => {
    const asked: string[] = [];
    withStore({ versions: async (name) => (asked.push(name), { current: SECRET, previous: 'p'.repeat(48) }) });
    expect(await edgeSecrets()).toEqual([SECRET, 'p'.repeat(48)]);
    withStore({ versions: async () => ({ current: SECRET }) });
    expect(await edgeSecrets()).toEqual([SECRET]);
    expect(asked).toEqual(['originVerify']);
  });

  it('are none where the store has none (the local runtime) or cannot be read: nothing is then believed, nothing fails', async () => {
    withStore({ versions: async () => undefined });
    expect(await edgeSecrets()).toEqual([]);
    withStore({
      versions: async () => {
        throw new Error('Secrets Manager is down');
      },
    });
    expect(await edgeSecrets()).toEqual([]);
  });
});

describe('a page of another origin', () => {
  // Judged against the request's own origin, as the HTTP layer works it out once per request.
  const foreign = (e: ReturnType<typeof event>) => fromForeignPage(e, originOf(e));
  const ours = { host: 'console.example.com' };
  it('is told by its Origin: ours passes, any other (null included) is foreign', () => {
    expect(foreign(event({ ...ours, origin: 'https://console.example.com' }))).toBe(false);
    expect(foreign(event({ ...ours, origin: 'https://evil.example' }))).toBe(true);
    expect(foreign(event({ ...ours, origin: 'http://console.example.com' }))).toBe(true);
    expect(foreign(event({ ...ours, origin: 'null' }))).toBe(true);
    expect(foreign(event({ ...ours, origin: '' }))).toBe(true);
    // Our Origin wins over what Sec-Fetch-Site says.
    expect(foreign(event({ ...ours, origin: 'https://console.example.com', 'sec-fetch-site': 'cross-site' }))).toBe(false);
  });

  it('without an Origin, by Sec-Fetch-Site; a request with neither comes from no browser', () => {
    expect(foreign(event({ ...ours, 'sec-fetch-site': 'cross-site' }))).toBe(true);
    expect(foreign(event({ ...ours, 'sec-fetch-site': 'same-site' }))).toBe(true);
    expect(foreign(event({ ...ours, 'sec-fetch-site': 'same-origin' }))).toBe(false);
    expect(foreign(event({ ...ours, 'sec-fetch-site': 'none' }))).toBe(false);
    expect(foreign(event(ours))).toBe(false);
  });

  it('is judged against the origin X-Forwarded-Host names only when our distribution sent it', () => {
    const forged = { host: 'abc.execute-api.eu-west-1.amazonaws.com', 'x-forwarded-host': 'evil.example', origin: 'https://evil.example' };
    expect(foreign(event(forged))).toBe(true);
  });
});
