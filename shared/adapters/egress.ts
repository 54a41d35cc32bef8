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
  egress ??= new SafeEgress(egressPolicyFromConfig());
  return egress;
}
