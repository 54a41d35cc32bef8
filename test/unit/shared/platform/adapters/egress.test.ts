import type { LookupAddress } from 'node:dns';
import { connect, createServer, type AddressInfo, type Server } from 'node:net';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { bareAddress, egressPolicyFromConfig } from '../../../../../shared/platform/adapters/egress-address';
import {
  checkNewTargetUrl,
  checkTargetUrl,
  forbiddenAddressReason,
  isLoopbackAddress,
  SafeEgress,
  type EgressLookup,
} from '../../../../../shared/platform/adapters/egress';
import { reloadRuntimeConfig } from '../../../../../shared/platform/config';
import type { EgressRequest } from '../../../../../shared/platform/ports/egress';

const STRICT = { allowLoopback: false };
const LOCAL = { allowLoopback: true };

function fakeLookup(answers: LookupAddress[] | Error | 'hang') {
  return vi.fn<EgressLookup>(async () => {
    if (answers === 'hang') return new Promise<never>(() => {});
    if (answers instanceof Error) throw answers;
    return answers;
  });
}

const v4 = (address: string): LookupAddress => ({ address, family: 4 });
const v6 = (address: string): LookupAddress => ({ address, family: 6 });

function request(url: string, extra: Partial<EgressRequest> = {}): EgressRequest {
  return { url, headers: { 'content-type': 'application/json' }, body: '{}', timeoutMs: 2000, readCapBytes: 1024, excerptBytes: 256, ...extra };
}

describe('forbiddenAddressReason', () => {
  const forbidden: [string, RegExp][] = [
    ['0.0.0.0', /this network/],
    ['0.1.2.3', /this network/],
    ['10.0.0.1', /private/],
    ['10.255.255.255', /private/],
    ['100.64.0.1', /carrier-grade NAT/],
    ['100.127.255.254', /carrier-grade NAT/],
    ['127.0.0.1', /loopback/],
    ['127.255.0.9', /loopback/],
    ['169.254.169.254', /^169\.254\.169\.254 is a link-local\/metadata address/],
    ['169.254.0.1', /link-local/],
    ['172.16.0.1', /private/],
    ['172.31.255.255', /private/],
    ['192.0.0.8', /IETF protocol/],
    ['192.0.2.10', /documentation/],
    ['192.88.99.1', /6to4 relay/],
    ['192.168.1.1', /private/],
    ['198.18.0.1', /benchmarking/],
    ['198.19.255.255', /benchmarking/],
    ['198.51.100.7', /documentation/],
    ['203.0.113.9', /documentation/],
    ['224.0.0.1', /multicast/],
    ['239.255.255.250', /multicast/],
    ['240.0.0.1', /reserved/],
    ['255.255.255.255', /broadcast/],
    ['::', /unspecified/],
    ['::1', /loopback/],
    ['[::1]', /loopback/],
    ['::ffff:127.0.0.1', /IPv4-mapped/],
    ['::ffff:7f00:1', /IPv4-mapped/],
    ['[::ffff:127.0.0.1]', /IPv4-mapped/],
    ['::ffff:93.184.216.34', /IPv4-mapped/], // mapped is refused whatever it embeds
    ['::ffff:5db8:d822', /IPv4-mapped/],
    ['64:ff9b::a00:1', /NAT64/],
    ['64:ff9b::8.8.8.8', /NAT64/],
    ['64:ff9b:1::1', /NAT64/],
    ['100::1', /discard/],
    ['2001::1', /Teredo/],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', /Teredo/],
    ['2001:1ff::1', /IETF special/],
    ['2001:db8::1', /documentation/],
    ['2002:7f00:1::1', /6to4/],
    ['fc00::1', /unique-local/],
    ['fd12:3456::1', /unique-local/],
    ['fd00:ec2::254', /metadata/],
    ['fe80::1', /link-local/],
    ['fe80::1%eth0', /^fe80::1 is a link-local address \(fe80::\/10\)$/], // named without the zone
    ['fec0::1', /^fec0::1 is a site-local \(deprecated\) address/],
    [' 10.0.0.1 ', /^10\.0\.0\.1 is a private address \(10\.0\.0\.0\/8\)$/], // trimmed
    ['febf::1', /link-local/],
    ['ff02::1', /multicast/],
    ['ff05::1:3', /multicast/],
  ];

  it.each(forbidden)('%s is refused', (address, reason) => {
    expect(forbiddenAddressReason(address, STRICT)).toMatch(reason);
  });

  it('refuses everything but loopback even when loopback is allowed', () => {
    for (const [address, reason] of forbidden) {
      const expected = /loopback/.test(reason.source) ? undefined : expect.stringMatching(reason);
      expect(forbiddenAddressReason(address, LOCAL), address).toEqual(expected);
    }
  });

  it('allows loopback only with allowLoopback', () => {
    for (const address of ['127.0.0.1', '127.1.2.3', '::1', '[::1]']) {
      expect(forbiddenAddressReason(address, STRICT)).toMatch(/loopback/);
      expect(forbiddenAddressReason(address, LOCAL)).toBeUndefined();
    }
    // IPv4-mapped loopback stays refused: the mapped range is refused as a whole
    expect(forbiddenAddressReason('::ffff:127.0.0.1', LOCAL)).toMatch(/IPv4-mapped/);
  });

  it('allows public addresses', () => {
    for (const address of [
      '93.184.216.34',
      '8.8.8.8',
      '1.1.1.1',
      '172.32.0.1',
      '100.128.0.1',
      '192.169.0.1',
      '2606:4700::1111',
      '2a00:1450:4001:80b::200e',
      '[2606:4700::1111]',
    ]) {
      expect(forbiddenAddressReason(address, STRICT), address).toBeUndefined();
    }
  });

  it('refuses IPv6 outside global unicast and anything that is not an IP address', () => {
    expect(forbiddenAddressReason('4000::1', STRICT)).toMatch(/global unicast/);
    expect(forbiddenAddressReason('::7f00:1', STRICT)).toMatch(/IPv4-compatible/);
    expect(forbiddenAddressReason('example.com', STRICT)).toMatch(/not an IP address/);
    expect(forbiddenAddressReason('0177.0.0.1', STRICT)).toMatch(/not an IP address/);
  });

  it('strips brackets only as a pair', () => {
    for (const address of ['[::1', '::1]', 'x::1]', '[::1x']) {
      expect(forbiddenAddressReason(address, LOCAL), address).toBe(`${address} is not an IP address`);
    }
    expect(forbiddenAddressReason('[::1]', LOCAL)).toBeUndefined();
  });

  it('bareAddress: drops a bracket pair and the zone from the first %', () => {
    expect(bareAddress('[::1]')).toBe('::1');
    expect(bareAddress('fe80::1%eth0')).toBe('fe80::1');
    expect(bareAddress('[fe80::1%eth0]')).toBe('fe80::1');
    // A zone at the very start leaves no address at all.
    expect(bareAddress('%eth0')).toBe('');
    expect(bareAddress('10.0.0.1')).toBe('10.0.0.1');
  });

  it('isLoopbackAddress: literal loopback addresses only', () => {
    for (const address of ['127.0.0.1', '127.9.9.9', '::1', '[::1]']) expect(isLoopbackAddress(address), address).toBe(true);
    for (const address of ['128.0.0.1', '::2', '::ffff:127.0.0.1', 'localhost', 'example.com', '']) expect(isLoopbackAddress(address), address).toBe(false);
  });

  it('property: every IPv4 address in 10/8, 172.16/12 and 192.168/16 is refused, as literal and as URL', () => {
    const octet = fc.integer({ min: 0, max: 255 });
    const privateV4 = fc.oneof(
      fc.tuple(octet, octet, octet).map(([b, c, d]) => `10.${b}.${c}.${d}`),
      fc.tuple(fc.integer({ min: 16, max: 31 }), octet, octet).map(([b, c, d]) => `172.${b}.${c}.${d}`),
      fc.tuple(octet, octet).map(([c, d]) => `192.168.${c}.${d}`),
    );
    fc.assert(
      fc.property(privateV4, fc.boolean(), (ip, allowLoopback) => {
        expect(forbiddenAddressReason(ip, { allowLoopback })).toMatch(/private/);
        expect(checkTargetUrl(`https://${ip}/hook`, { allowLoopback })).toMatch(/private/);
      }),
    );
  });

  it('property: every IPv4-mapped address is refused, in dotted and in hex form', () => {
    fc.assert(
      fc.property(fc.ipV4(), fc.boolean(), (ip, allowLoopback) => {
        const [a, b, c, d] = ip.split('.').map(Number) as [number, number, number, number];
        const hex = `::ffff:${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
        expect(forbiddenAddressReason(`::ffff:${ip}`, { allowLoopback })).toMatch(/IPv4-mapped/);
        expect(forbiddenAddressReason(hex, { allowLoopback })).toMatch(/IPv4-mapped/);
        expect(checkTargetUrl(`https://[::ffff:${ip}]/`, { allowLoopback })).toMatch(/IPv4-mapped/);
      }),
    );
  });
});

describe('checkTargetUrl', () => {
  it('accepts https with a hostname or a public address', () => {
    expect(checkTargetUrl('https://hooks.example.com/webhooks?x=1', STRICT)).toBeUndefined();
    expect(checkTargetUrl('https://93.184.216.34:8443/hook', STRICT)).toBeUndefined();
    expect(checkTargetUrl('https://[2606:4700::1111]/hook', STRICT)).toBeUndefined();
  });

  it('rejects malformed and relative URLs and other schemes', () => {
    expect(checkTargetUrl('not a url', STRICT)).toMatch(/valid absolute URL/);
    expect(checkTargetUrl('/relative/path', STRICT)).toMatch(/valid absolute URL/);
    expect(checkTargetUrl('', STRICT)).toMatch(/valid absolute URL/);
    expect(checkTargetUrl('https://[::1/', STRICT)).toMatch(/valid absolute URL/);
    expect(checkTargetUrl('ftp://example.com/', STRICT)).toMatch(/scheme ftp:/);
    expect(checkTargetUrl('file:///etc/passwd', LOCAL)).toMatch(/scheme file:/);
    expect(checkTargetUrl('gopher://example.com/', LOCAL)).toMatch(/scheme gopher:/);
  });

  it('the URL parser refuses an http(s) URL without a host before any check of ours', () => {
    for (const url of ['https://', 'http://', 'https://:443/', 'https://@/', 'https://[]/']) {
      expect(checkTargetUrl(url, LOCAL), url).toBe('not a valid absolute URL');
    }
  });

  it('allows http only towards loopback and only with allowLoopback', () => {
    expect(checkTargetUrl('http://example.com/', STRICT)).toMatch(/http: is not allowed/);
    expect(checkTargetUrl('http://127.0.0.1:8080/', STRICT)).toMatch(/http: is not allowed/);
    expect(checkTargetUrl('http://127.0.0.1:8080/', LOCAL)).toBeUndefined();
    expect(checkTargetUrl('http://[::1]:8080/', LOCAL)).toBeUndefined();
    expect(checkTargetUrl('http://localhost:8080/', LOCAL)).toBeUndefined();
    expect(checkTargetUrl('http://93.184.216.34/', LOCAL)).toMatch(/only allowed for loopback/);
    expect(checkTargetUrl('http://10.0.0.1/', LOCAL)).toMatch(/only allowed for loopback/);
  });

  it('rejects credentials in the URL', () => {
    expect(checkTargetUrl('https://user:secret@example.com/', STRICT)).toMatch(/credentials/);
    expect(checkTargetUrl('https://user@example.com/', STRICT)).toMatch(/credentials/);
    expect(checkTargetUrl('https://:pw@example.com/', STRICT)).toMatch(/credentials/);
  });

  it('rejects forbidden literal addresses in every spelling the URL parser accepts', () => {
    expect(checkTargetUrl('https://127.0.0.1/', STRICT)).toMatch(/loopback/);
    expect(checkTargetUrl('https://127.0.0.1/', LOCAL)).toBeUndefined();
    expect(checkTargetUrl('https://127.1/', STRICT)).toMatch(/loopback/);
    expect(checkTargetUrl('https://2130706433/', STRICT)).toMatch(/loopback/);
    expect(checkTargetUrl('https://0x7f.0.0.1/', STRICT)).toMatch(/loopback/);
    expect(checkTargetUrl('https://0/', STRICT)).toMatch(/this network/);
    expect(checkTargetUrl('https://10.0.0.1/', STRICT)).toMatch(/private/);
    expect(checkTargetUrl('https://169.254.169.254/latest/meta-data/', LOCAL)).toMatch(/169\.254\.169\.254 is a link-local\/metadata address/);
    expect(checkTargetUrl('https://[::1]/', STRICT)).toMatch(/loopback/);
    expect(checkTargetUrl('https://[::ffff:127.0.0.1]/', LOCAL)).toMatch(/IPv4-mapped/);
    expect(checkTargetUrl('https://[::ffff:7f00:1]/', LOCAL)).toMatch(/IPv4-mapped/);
    expect(checkTargetUrl('https://[fd00:ec2::254]/', LOCAL)).toMatch(/metadata/);
    expect(checkTargetUrl('https://[64:ff9b::a00:1]/', LOCAL)).toMatch(/NAT64/);
    expect(checkTargetUrl('https://100.64.0.1/', LOCAL)).toMatch(/carrier-grade NAT/);
    expect(checkTargetUrl('https://224.0.0.1/', LOCAL)).toMatch(/multicast/);
  });

  it('treats localhost as loopback', () => {
    expect(checkTargetUrl('https://localhost/', STRICT)).toMatch(/loopback/);
    expect(checkTargetUrl('https://LOCALHOST./', STRICT)).toMatch(/loopback/);
    expect(checkTargetUrl('https://api.localhost/', STRICT)).toMatch(/loopback/);
    expect(checkTargetUrl('https://localhost/', LOCAL)).toBeUndefined();
    expect(checkTargetUrl('https://localhost.example.com/', STRICT)).toBeUndefined();
  });
});

describe('SafeEgress.post refusals (no connection is made)', () => {
  let server: Server;
  let port: number;
  let connections = 0;

  beforeAll(async () => {
    server = createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /**
   * Connections the server has counted once a probe connection of our own has been accepted (and
   * closed by it): the server accepts in order, so any connection opened earlier is counted too.
   */
  async function connectionsBeforeProbe(): Promise<number> {
    await new Promise<void>((resolve, reject) =>
      connect(port, '127.0.0.1')
        .on('close', () => resolve())
        .on('error', reject),
    );
    return connections - 1;
  }

  it('refuses a hostname that resolves to loopback when loopback is not allowed', async () => {
    const before = connections;
    const lookup = fakeLookup([v4('127.0.0.1')]);
    const started = performance.now();
    const result = await new SafeEgress(STRICT, lookup).post(request(`https://rebind.example:${port}/hook`));
    const elapsed = performance.now() - started;
    expect(result).toMatchObject({ kind: 'refused', reason: expect.stringMatching(/^rebind\.example resolves to 127\.0\.0\.1 is a loopback address/) });
    // Whole milliseconds of this call, lookup included.
    expect(Number.isInteger(result.durationMs)).toBe(true);
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    expect(result.durationMs).toBeLessThanOrEqual(Math.ceil(elapsed));
    expect(lookup).toHaveBeenCalledTimes(1);
    expect(lookup).toHaveBeenCalledWith('rebind.example', { all: true, verbatim: true });
    expect(await connectionsBeforeProbe()).toBe(before);
  });

  it('refuses when any answer is forbidden, whatever its position (mixed rebinding answers)', async () => {
    const before = connections;
    for (const answers of [
      [v4('93.184.216.34'), v4('10.0.0.5')],
      [v4('10.0.0.5'), v4('93.184.216.34')],
      [v6('2606:4700::1111'), v6('::ffff:7f00:1')],
      [v4('93.184.216.34'), v6('fd00:ec2::254')],
      [v4('93.184.216.34'), v4('127.0.0.1')],
    ]) {
      const lookup = fakeLookup(answers);
      const result = await new SafeEgress(STRICT, lookup).post(request(`https://mixed.example:${port}/`));
      expect(result, JSON.stringify(answers)).toMatchObject({ kind: 'refused', reason: expect.stringMatching(/^mixed\.example resolves to /) });
      expect(lookup).toHaveBeenCalledTimes(1);
    }
    expect(await connectionsBeforeProbe()).toBe(before);
  });

  it('refuses bad URLs and forbidden literals without looking anything up', async () => {
    const lookup = fakeLookup([v4('93.184.216.34')]);
    const egress = new SafeEgress(STRICT, lookup);
    for (const [url, reason] of [
      ['http://example.com/', /http:/],
      ['https://u:p@example.com/', /credentials/],
      ['nope', /valid absolute URL/],
      ['https://169.254.169.254/', /metadata/],
      ['https://[::ffff:127.0.0.1]/', /IPv4-mapped/],
      [`https://127.0.0.1:${port}/`, /loopback/],
      ['https://localhost/', /loopback/],
    ] as const) {
      expect(await egress.post(request(url)), url).toMatchObject({ kind: 'refused', reason: expect.stringMatching(reason) });
    }
    expect(lookup).not.toHaveBeenCalled();
  });

  it('refuses http to a hostname that resolves to a non-loopback address even with allowLoopback', async () => {
    const lookup = fakeLookup([v4('127.0.0.1'), v4('93.184.216.34')]);
    const result = await new SafeEgress(LOCAL, lookup).post(request('http://hooks.example/'));
    expect(result).toMatchObject({ kind: 'refused', reason: expect.stringMatching(/only allowed for loopback/) });
  });

  it('reports DNS failures and DNS time-outs as retryable errors', async () => {
    const notFound = Object.assign(new Error('getaddrinfo ENOTFOUND nx.example'), { code: 'ENOTFOUND' });
    const failed = await new SafeEgress(STRICT, fakeLookup(notFound)).post(request('https://nx.example/'));
    expect(failed).toMatchObject({ kind: 'error', timedOut: false, reason: expect.stringMatching(/DNS lookup of nx.example failed: host not found/) });

    const empty = await new SafeEgress(STRICT, fakeLookup([])).post(request('https://empty.example/'));
    expect(empty).toMatchObject({ kind: 'error', timedOut: false, reason: expect.stringMatching(/no address/) });

    const started = Date.now();
    const hung = await new SafeEgress(STRICT, fakeLookup('hang')).post(request('https://slow.example/', { timeoutMs: 100 }));
    expect(hung).toMatchObject({ kind: 'error', timedOut: true });
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('a URL saved as a target', () => {
  it('over http names a loopback host by itself: another hostname is refused when saved, not at delivery', () => {
    const refusal = 'scheme http: is only allowed for loopback targets (127.0.0.1, [::1], localhost); use https:';
    for (const url of ['http://hooks.example.com/in', 'http://example.com:8080/', 'http://localhost.example.com/', 'http://127.0.0.1.nip.io/']) {
      expect(checkNewTargetUrl(url, LOCAL), url).toBe(refusal);
      expect(new SafeEgress(LOCAL).check(url), url).toBe(refusal);
      // Delivery still judges a hostname by what it resolves to.
      expect(checkTargetUrl(url, LOCAL), url).toBeUndefined();
    }
    for (const url of [
      'http://127.0.0.1:8080/in',
      'http://[::1]:8080/',
      'http://localhost:3000/',
      'http://hooks.localhost/',
      'https://hooks.example.com/in',
      'https://example.com:8443/',
    ]) {
      expect(checkNewTargetUrl(url, LOCAL), url).toBeUndefined();
    }
  });

  it('keeps every refusal of the delivery check', () => {
    expect(checkNewTargetUrl('http://example.com/', STRICT)).toMatch(/http: is not allowed/);
    expect(checkNewTargetUrl('http://127.0.0.1/', STRICT)).toMatch(/http: is not allowed/);
    expect(checkNewTargetUrl('http://10.0.0.1/', LOCAL)).toMatch(/only allowed for loopback/);
    expect(checkNewTargetUrl('not a url', LOCAL)).toMatch(/valid absolute URL/);
    expect(checkNewTargetUrl('https://user:pw@example.com/', LOCAL)).toMatch(/credentials/);
    expect(checkNewTargetUrl('https://169.254.169.254/', LOCAL)).toMatch(/metadata/);
  });
});

describe("this process's egress policy", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    reloadRuntimeConfig();
  });

  const policyWith = (value: string | undefined) => {
    vi.stubEnv('TABLE_NAME', 'unit');
    vi.stubEnv('WEBHOOK_ALLOW_LOOPBACK', value);
    reloadRuntimeConfig();
    return egressPolicyFromConfig();
  };

  it('allows loopback receivers only where the runtime sets WEBHOOK_ALLOW_LOOPBACK=true', () => {
    expect(policyWith('true')).toEqual({ allowLoopback: true });
    expect(policyWith('false')).toEqual({ allowLoopback: false });
    expect(policyWith(undefined)).toEqual({ allowLoopback: false });
  });
});
