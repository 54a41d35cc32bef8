import { promises as dnsPromises, type LookupAddress, type LookupOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { StringDecoder } from 'node:string_decoder';
import type { Egress, EgressPolicy, EgressRequest, EgressResult } from '../ports/egress';
import { bareAddress, checkNewTargetUrl, checkTargetUrl, egressPolicyFromConfig, familyOf, forbiddenAddressReason, isLoopbackAddress } from './egress-address';

export { checkNewTargetUrl, checkTargetUrl, forbiddenAddressReason, isLoopbackAddress };

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

/** How one request ends: a result, or a failure reason (timed out or not). */
interface Outcome {
  refused(reason: string): EgressResult;
  failed(reason: string, timedOut?: boolean): EgressResult;
  durationMs(): number;
}

function outcomeSince(start: number): Outcome {
  const durationMs = () => elapsedSince(start);
  return {
    durationMs,
    refused: (reason) => ({ kind: 'refused', reason, durationMs: durationMs() }),
    failed: (reason, timedOut = false) => ({ kind: 'error', reason, timedOut, durationMs: durationMs() }),
  };
}

type Answer = { address: string; family: number };

/** The request's headers without those the connection sets itself, with the body's length. */
function outboundHeaders(request: EgressRequest, body: Buffer): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (!RESERVED_HEADERS.has(name.toLowerCase())) headers[name] = value;
  }
  headers['Content-Length'] = String(body.length);
  return headers;
}

/** Why none of the answers may be connected to (any forbidden answer refuses the request), if so. */
function refusalOf(url: URL, host: string, answers: Answer[], policy: EgressPolicy): string | undefined {
  for (const answer of answers) {
    const reason = forbiddenAddressReason(answer.address, policy);
    if (reason) return answer.address === host ? reason : `${host} resolves to ${reason}`;
  }
  if (url.protocol === 'http:' && !answers.every((a) => isLoopbackAddress(a.address))) {
    return `scheme http: is only allowed for loopback targets; ${host} resolves to a non-loopback address`;
  }
  return undefined;
}

/** Where a request goes: the checked address it connects to, the port, and how errors name it. */
interface Pinned {
  url: URL;
  host: string;
  address: string;
  family: number;
  port: number;
  target: string;
}

function pin(url: URL, host: string, chosen: Answer): Pinned {
  const address = bareAddress(chosen.address);
  const family = isIP(address);
  const port = url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  return { url, host, address, family, port, target: `${family === 6 ? `[${address}]` : address}:${port}` };
}

function requestOptions({ url, host, address, family, port }: Pinned, headers: Record<string, string>): https.RequestOptions {
  // Connect to exactly the checked address: no second DNS lookup, whatever net asks for.
  const pinnedLookup = (_hostname: string, options: LookupOptions, callback: (...args: any[]) => void) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
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
  return options;
}

/** How a request in flight is settled: once, later calls are ignored. */
interface Settle {
  (result: EgressResult): void;
  readonly done: () => boolean;
}

/** Reads a response up to the read cap, keeping its first `excerptBytes`; `finish` settles the request. */
function readResponse(response: http.IncomingMessage, request: EgressRequest, target: string, out: Outcome, finish: Settle) {
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
      durationMs: out.durationMs(),
    });
  response.on('data', (chunk: Buffer) => {
    if (finish.done()) return;
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
  response.on('error', (err) => finish(out.failed(`response from ${target} broke off: ${describeError(err, target)}`)));
  response.on('close', () => {
    if (!response.complete) finish(out.failed(`response from ${target} broke off`));
  });
  if (cap === 0) done();
}

/** Sends the request to the pinned address within `remainingMs`: no redirect is followed. */
function send(pinned: Pinned, request: EgressRequest, remainingMs: number, out: Outcome): Promise<EgressResult> {
  const body = Buffer.from(request.body, 'utf8');
  const headers = outboundHeaders(request, body);
  return new Promise<EgressResult>((resolve) => {
    let settled = false;
    let req: http.ClientRequest | undefined;
    let res: http.IncomingMessage | undefined;
    const finish: Settle = Object.assign(
      (result: EgressResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        res?.destroy();
        req?.destroy();
        resolve(result);
      },
      { done: () => settled },
    );
    const timer = setTimeout(() => finish(out.failed(`timed out after ${request.timeoutMs} ms`, true)), remainingMs);
    try {
      req = (pinned.url.protocol === 'https:' ? https : http).request(requestOptions(pinned, headers));
    } catch (err) {
      // Invalid header names/values and the like: a permanent problem of the request itself.
      finish(out.refused(`invalid request: ${describeError(err, pinned.target)}`));
      return;
    }
    req.on('error', (err) => finish(out.failed(describeError(err, pinned.target))));
    req.on('response', (response) => {
      res = response;
      readResponse(response, request, pinned.target, out, finish);
    });
    req.end(body);
  });
}

export class SafeEgress implements Egress {
  constructor(
    private readonly policy: EgressPolicy,
    private readonly lookup: EgressLookup = defaultLookup,
  ) {}

  check(url: string): string | undefined {
    return checkNewTargetUrl(url, this.policy);
  }

  async post(request: EgressRequest): Promise<EgressResult> {
    const start = performance.now();
    const out = outcomeSince(start);
    const problem = checkTargetUrl(request.url, this.policy);
    if (problem) return out.refused(problem);
    const url = new URL(request.url);
    const host = bareAddress(url.hostname);
    const deadline = start + Math.max(0, request.timeoutMs);

    const answers = await this.resolve(host, deadline, request.timeoutMs);
    if (!Array.isArray(answers)) return out.failed(answers.reason, answers.timedOut);
    const refusal = refusalOf(url, host, answers, this.policy);
    if (refusal) return out.refused(refusal);

    const remaining = deadline - performance.now();
    if (remaining <= 0) return out.failed(`timed out after ${request.timeoutMs} ms`, true);
    return send(pin(url, host, answers[0]!), request, remaining, out);
  }

  /** Resolves the host once, within the deadline (a literal address is used as is). */
  private async resolve(host: string, deadline: number, timeoutMs: number): Promise<Answer[] | { reason: string; timedOut: boolean }> {
    if (familyOf(host)) return [{ address: host, family: isIP(host) }];
    let timer: NodeJS.Timeout | undefined;
    let answers: Answer[];
    try {
      answers = await Promise.race([
        this.lookup(host, { all: true, verbatim: true }),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Deadline()), Math.max(0, deadline - performance.now()));
        }),
      ]);
    } catch (err) {
      if (err instanceof Deadline) return { reason: `DNS lookup of ${host} timed out after ${timeoutMs} ms`, timedOut: true };
      return { reason: `DNS lookup of ${host} failed: ${describeError(err, host)}`, timedOut: false };
    } finally {
      clearTimeout(timer);
    }
    if (!Array.isArray(answers) || answers.length === 0) return { reason: `DNS lookup of ${host} returned no address`, timedOut: false };
    return answers;
  }
}

let egress: SafeEgress | undefined;

/** The process's egress: loopback receivers only where the local runtime allows them. */
export function egressFromConfig(): Egress {
  egress ??= new SafeEgress(egressPolicyFromConfig());
  return egress;
}
