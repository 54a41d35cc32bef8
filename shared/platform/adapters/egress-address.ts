import { BlockList, isIP } from 'node:net';
import { runtimeConfig } from '../config';
import type { Egress, EgressPolicy } from '../ports/egress';

/**
 * The address rules of SSRF-safe egress, without the HTTP machinery: what a target URL or a resolved
 * address may be. `SafeEgress` applies them before and after DNS; the webhooks area checks target
 * URLs with them when an endpoint is saved (and so does not load node:http at cold start).
 */

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
export function bareAddress(host: string): string {
  const unbracketed = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const zone = unbracketed.indexOf('%');
  return zone >= 0 ? unbracketed.slice(0, zone) : unbracketed;
}

export function familyOf(address: string): 'ipv4' | 'ipv6' | undefined {
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
  // Never empty: the parser refuses an http(s) URL without a host.
  const host = bareAddress(parsed.hostname);

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

/**
 * A URL being saved as a target (a webhook endpoint, an export's `webhookUrl`): `checkTargetUrl`,
 * and over http only a host that is loopback by its very name (127.0.0.1, [::1], localhost). Any
 * other hostname over http would be refused at delivery once it resolves to a public address, so
 * it is refused now, where the caller sees why.
 */
export function checkNewTargetUrl(url: string, policy: EgressPolicy): string | undefined {
  const reason = checkTargetUrl(url, policy);
  if (reason) return reason;
  const parsed = new URL(url);
  const host = bareAddress(parsed.hostname);
  const loopbackHost = familyOf(host) !== undefined ? isLoopbackAddress(host) : isLocalhostName(host);
  return parsed.protocol === 'http:' && !loopbackHost
    ? 'scheme http: is only allowed for loopback targets (127.0.0.1, [::1], localhost); use https:'
    : undefined;
}

/** This process's egress policy: loopback receivers only where the local runtime allows them. */
export const egressPolicyFromConfig = (): EgressPolicy => ({ allowLoopback: runtimeConfig().WEBHOOK_ALLOW_LOOPBACK === 'true' });

let check: Pick<Egress, 'check'> | undefined;

/** URL checks under this process's policy. */
export function targetCheckFromConfig(): Pick<Egress, 'check'> {
  const policy = egressPolicyFromConfig();
  check ??= { check: (url) => checkNewTargetUrl(url, policy) };
  return check;
}
