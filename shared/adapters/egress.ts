import { promises as dnsPromises, type LookupAddress, type LookupOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';
import { StringDecoder } from 'node:string_decoder';
import type { Egress, EgressPolicy, EgressRequest, EgressResult } from '../ports/egress';
import { runtimeConfig } from '../config';

/**
 * SSRF-safe outbound HTTP (the `Egress` port).
 *
 * 1. `checkTargetUrl`: absolute URL, https (http only towards loopback when the policy allows it),
 *    no credentials, no literal address in a forbidden range. No DNS.
 * 2. The host is resolved ONCE (`lookup(host, { all: true, verbatim: true })`); if any answer is
 *    forbidden the request is refused (a rebinding answer mixed in with public ones is still caught).
 * 3. The socket connects to exactly the first checked answer (custom `lookup` option returning that
 *    address), while Host and TLS SNI/certificate checks keep the original hostname.
 * 4. No redirects, one overall deadline (DNS + connect + whole response), capped body read.
 */

/** Same shape as `dns.promises.lookup(host, { all: true, verbatim: true })`; injectable for tests. */
export type EgressLookup = (hostname: string, options: { all: true; verbatim: true }) => Promise<LookupAddress[]>;

const defaultLookup: EgressLookup = (hostname, options) => dnsPromises.lookup(hostname, options);

interface Range {
  network: string;
  prefix: number;
  /** Completes "<address> is ..." */
  label: string;
  list: BlockList;
}

function range(family: 'ipv4' | 'ipv6', network: string, prefix: number, label: string): Range {
  const list = new BlockList();
  list.addSubnet(network, prefix, family);
  return { network, prefix, label, list };
}

const v4 = (network: string, prefix: number, label: string) => range('ipv4', network, prefix, label);
const v6 = (network: string, prefix: number, label: string) => range('ipv6', network, prefix, label);

// Node's BlockList matches across families (an IPv6 rule can match an IPv4 address and the other way
// round through the IPv4-mapped form), so each family has its own rules and an address is only ever
// checked against the rules of its own family. The first matching rule names the reason, so more
// specific ranges come before the ranges that contain them.
const LOOPBACK_V4 = v4('127.0.0.0', 8, 'a loopback address');
const LOOPBACK_V6 = v6('::1', 128, 'a loopback address');

const FORBIDDEN_V4: Range[] = [
  v4('255.255.255.255', 32, 'the broadcast address'),
  v4('0.0.0.0', 8, 'a "this network" address'),
  v4('10.0.0.0', 8, 'a private address'),
  v4('100.64.0.0', 10, 'a carrier-grade NAT (shared) address'),
  v4('169.254.0.0', 16, 'a link-local/metadata address'),
  v4('172.16.0.0', 12, 'a private address'),
  v4('192.0.0.0', 24, 'an IETF protocol-assignment address'),
  v4('192.0.2.0', 24, 'a documentation (TEST-NET-1) address'),
  v4('192.88.99.0', 24, 'a 6to4 relay anycast address'),
  v4('192.168.0.0', 16, 'a private address'),
  v4('198.18.0.0', 15, 'a benchmarking address'),
  v4('198.51.100.0', 24, 'a documentation (TEST-NET-2) address'),
  v4('203.0.113.0', 24, 'a documentation (TEST-NET-3) address'),
  v4('224.0.0.0', 4, 'a multicast address'),
  v4('240.0.0.0', 4, 'a reserved address'),
];

const FORBIDDEN_V6: Range[] = [
  v6('::', 128, 'the unspecified address'),
  v6('::ffff:0:0', 96, 'an IPv4-mapped address'),
  v6('::', 96, 'an IPv4-compatible (deprecated) address'),
  v6('64:ff9b::', 96, 'a NAT64 address'),
  v6('64:ff9b:1::', 48, 'a local-use NAT64 address'),
  v6('100::', 64, 'a discard-only address'),
  v6('2001::', 32, 'a Teredo address'),
  v6('2001::', 23, 'an IETF special-purpose address'),
  v6('2001:db8::', 32, 'a documentation address'),
  v6('2002::', 16, 'a 6to4 address'),
  v6('fd00:ec2::254', 128, 'the EC2 instance metadata address'),
  v6('fc00::', 7, 'a unique-local (private) address'),
  v6('fec0::', 10, 'a site-local (deprecated) address'),
  v6('fe80::', 10, 'a link-local address'),
  v6('ff00::', 8, 'a multicast address'),
];

/** Everything routable on the public IPv6 internet lies in 2000::/3; the rest is reserved or unassigned. */
const GLOBAL_UNICAST_V6 = v6('2000::', 3, '');

function matches(r: Range, address: string, family: 'ipv4' | 'ipv6'): boolean {
  return r.list.check(address, family);
}

/** `[::1]` -> `::1`, `fe80::1%eth0` -> `fe80::1`. */
function bareAddress(host: string): string {
  const unbracketed = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const zone = unbracketed.indexOf('%');
  return zone >= 0 ? unbracketed.slice(0, zone) : unbracketed;
}

function familyOf(address: string): 'ipv4' | 'ipv6' | undefined {
  const f = isIP(address);
  return f === 4 ? 'ipv4' : f === 6 ? 'ipv6' : undefined;
}

/** True for 127.0.0.0/8 and ::1 (literal addresses only). */
export function isLoopbackAddress(address: string): boolean {
  const bare = bareAddress(address);
  const family = familyOf(bare);
  if (family === 'ipv4') return matches(LOOPBACK_V4, bare, family);
  if (family === 'ipv6') return matches(LOOPBACK_V6, bare, family);
  return false;
}

/** `localhost`, `*.localhost` (RFC 6761), with or without the trailing dot. */
function isLocalhostName(host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return h === 'localhost' || h.endsWith('.localhost');
}

/**
 * Why `address` (an IPv4 or IPv6 literal, brackets allowed) must not be connected to, or
 * `undefined` when it may. Something that is not an IP address is refused.
 */
export function forbiddenAddressReason(address: string, policy: EgressPolicy): string | undefined {
  const bare = bareAddress(address.trim());
  const family = familyOf(bare);
  if (!family) return `${address} is not an IP address`;
  const loopback = family === 'ipv4' ? LOOPBACK_V4 : LOOPBACK_V6;
  if (matches(loopback, bare, family)) {
    return policy.allowLoopback ? undefined : `${bare} is ${loopback.label} (${loopback.network}/${loopback.prefix})`;
  }
  for (const r of family === 'ipv4' ? FORBIDDEN_V4 : FORBIDDEN_V6) {
    if (matches(r, bare, family)) return `${bare} is ${r.label} (${r.network}/${r.prefix})`;
  }
  if (family === 'ipv6' && !matches(GLOBAL_UNICAST_V6, bare, family)) {
    return `${bare} is not a global unicast address (outside 2000::/3)`;
  }
  return undefined;
}

/**
 * Why `url` is not an acceptable target, judged without DNS, or `undefined`. Hostnames are accepted
 * here (their addresses are checked at delivery). `http:` needs `policy.allowLoopback` and a loopback
 * host; a hostname over http is accepted here and must resolve to loopback addresses only at delivery.
 */
export function checkTargetUrl(url: string, policy: EgressPolicy): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'not a valid absolute URL';
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    return `scheme ${parsed.protocol} is not allowed; use https:`;
  }
  if (parsed.username !== '' || parsed.password !== '') return 'the URL must not contain credentials';
  const host = bareAddress(parsed.hostname);
  if (host === '') return 'the URL has no host';

  const literal = familyOf(host) !== undefined;
  const loopbackHost = literal ? isLoopbackAddress(host) : isLocalhostName(host);
  if (parsed.protocol === 'http:') {
    if (!policy.allowLoopback) return 'scheme http: is not allowed; use https:';
    if (literal && !loopbackHost) return 'scheme http: is only allowed for loopback targets; use https:';
  }
  if (literal) return forbiddenAddressReason(host, policy);
  if (loopbackHost && !policy.allowLoopback) return `${host} is a loopback host`;
  return undefined;
}

class Deadline extends Error {}

const RESERVED_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection']);

function elapsedSince(start: number): number {
  return Math.round(performance.now() - start);
}

function describeError(err: unknown, target: string): string {
  const e = err as NodeJS.ErrnoException & { reason?: string };
  const code = e?.code ?? '';
  switch (code) {
    case 'ECONNREFUSED':
      return `connection refused by ${target}`;
    case 'ECONNRESET':
      return `connection reset by ${target}`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `${target} is unreachable (${code})`;
    case 'ENOTFOUND':
      return 'host not found';
    case 'EAI_AGAIN':
      return 'temporary DNS failure';
    default:
      break;
  }
  const message = (e instanceof Error ? e.message : String(err)).trim();
  if (/^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_)/.test(code) || /ssl|tls|certificate/i.test(message)) {
    return `TLS error: ${message}`;
  }
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}

/** Decode up to `bytes` bytes as UTF-8 without emitting a cut multi-byte sequence at the end. */
function excerpt(buf: Buffer, bytes: number): string {
  return new StringDecoder('utf8').write(buf.subarray(0, Math.max(0, bytes)));
}

export class SafeEgress implements Egress {
  constructor(
    private readonly policy: EgressPolicy,
    private readonly lookup: EgressLookup = defaultLookup,
  ) {}

  check(url: string): string | undefined {
    return checkTargetUrl(url, this.policy);
  }

  async post(request: EgressRequest): Promise<EgressResult> {
    const start = performance.now();
    const durationMs = () => elapsedSince(start);
    const refused = (reason: string): EgressResult => ({ kind: 'refused', reason, durationMs: durationMs() });
    const failed = (reason: string, timedOut = false): EgressResult => ({ kind: 'error', reason, timedOut, durationMs: durationMs() });

    const problem = checkTargetUrl(request.url, this.policy);
    if (problem) return refused(problem);
    const url = new URL(request.url);
    const host = bareAddress(url.hostname);
    const deadline = start + Math.max(0, request.timeoutMs);

    // Resolve once (a literal address is used as is).
    let answers: { address: string; family: number }[];
    if (familyOf(host)) {
      answers = [{ address: host, family: isIP(host) }];
    } else {
      let timer: NodeJS.Timeout | undefined;
      try {
        answers = await Promise.race([
          this.lookup(host, { all: true, verbatim: true }),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Deadline()), Math.max(0, deadline - performance.now()));
          }),
        ]);
      } catch (err) {
        if (err instanceof Deadline) return failed(`DNS lookup of ${host} timed out after ${request.timeoutMs} ms`, true);
        return failed(`DNS lookup of ${host} failed: ${describeError(err, host)}`);
      } finally {
        clearTimeout(timer);
      }
      if (!Array.isArray(answers) || answers.length === 0) return failed(`DNS lookup of ${host} returned no address`);
    }

    for (const answer of answers) {
      const reason = forbiddenAddressReason(answer.address, this.policy);
      if (reason) return refused(answer.address === host ? reason : `${host} resolves to ${reason}`);
    }
    if (url.protocol === 'http:' && !answers.every((a) => isLoopbackAddress(a.address))) {
      return refused(`scheme http: is only allowed for loopback targets; ${host} resolves to a non-loopback address`);
    }

    const chosen = answers[0]!;
    const address = bareAddress(chosen.address);
    const family = isIP(address);
    const port = url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
    const target = `${family === 6 ? `[${address}]` : address}:${port}`;

    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (!RESERVED_HEADERS.has(name.toLowerCase())) headers[name] = value;
    }
    const body = Buffer.from(request.body, 'utf8');
    headers['Content-Length'] = String(body.length);

    // Connect to exactly the checked address: no second DNS lookup, whatever net asks for.
    const pinnedLookup = (_hostname: string, options: LookupOptions, callback: (...args: any[]) => void) => {
      if (options?.all) callback(null, [{ address, family }]);
      else callback(null, address, family);
    };

    const remaining = deadline - performance.now();
    if (remaining <= 0) return failed(`timed out after ${request.timeoutMs} ms`, true);

    return new Promise<EgressResult>((resolve) => {
      let settled = false;
      let req: http.ClientRequest | undefined;
      let res: http.IncomingMessage | undefined;
      const finish = (result: EgressResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        res?.destroy();
        req?.destroy();
        resolve(result);
      };
      const timer = setTimeout(() => finish(failed(`timed out after ${request.timeoutMs} ms`, true)), remaining);

      const options: https.RequestOptions = {
        method: 'POST',
        protocol: url.protocol,
        // The original name: Host header, and for https the SNI and certificate check.
        hostname: host,
        port,
        path: `${url.pathname}${url.search}`,
        headers,
        agent: false,
        lookup: pinnedLookup,
      };
      if (url.protocol === 'https:' && !familyOf(host)) options.servername = host;

      try {
        req = (url.protocol === 'https:' ? https : http).request(options);
      } catch (err) {
        // Invalid header names/values and the like: a permanent problem of the request itself.
        finish(refused(`invalid request: ${describeError(err, target)}`));
        return;
      }

      req.on('error', (err) => finish(failed(describeError(err, target))));
      req.on('response', (response) => {
        res = response;
        const cap = Math.max(0, request.readCapBytes);
        const keep = Math.min(cap, Math.max(0, request.excerptBytes));
        const kept: Buffer[] = [];
        let keptBytes = 0;
        let readBytes = 0;
        const responseHeaders: Record<string, string> = {};
        for (const [name, value] of Object.entries(response.headers)) {
          if (value !== undefined) responseHeaders[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
        }
        const done = () =>
          finish({
            kind: 'response',
            status: response.statusCode ?? 0,
            headers: responseHeaders,
            bodyExcerpt: excerpt(Buffer.concat(kept, keptBytes), keep),
            durationMs: durationMs(),
          });

        response.on('data', (chunk: Buffer) => {
          if (settled) return;
          const take = Math.min(chunk.length, cap - readBytes);
          readBytes += take;
          if (keptBytes < keep && take > 0) {
            const part = chunk.subarray(0, Math.min(take, keep - keptBytes));
            kept.push(part);
            keptBytes += part.length;
          }
          if (readBytes >= cap) done(); // the rest is discarded unread (the socket is destroyed)
        });
        response.on('end', done);
        response.on('error', (err) => finish(failed(`response from ${target} broke off: ${describeError(err, target)}`)));
        response.on('close', () => {
          if (!response.complete) finish(failed(`response from ${target} broke off`));
        });
        if (cap === 0) done();
      });
      req.end(body);
    });
  }
}

let egress: SafeEgress | undefined;

/** The process's egress: loopback receivers only where the local runtime allows them. */
export function egressFromConfig(): Egress {
  egress ??= new SafeEgress({ allowLoopback: runtimeConfig().WEBHOOK_ALLOW_LOOPBACK === 'true' });
  return egress;
}
