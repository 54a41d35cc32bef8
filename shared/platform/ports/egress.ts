/** Who may be called. In AWS only public https targets; the local runtime may also call loopback http. */
export interface EgressPolicy {
  /** Allow http:// and loopback addresses (127.0.0.0/8, ::1, localhost). Off in AWS. */
  allowLoopback: boolean;
}

export interface EgressRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** Connect plus response, in milliseconds. */
  timeoutMs: number;
  /** Bytes of the response body read at most; the rest is discarded unread. */
  readCapBytes: number;
  /** Bytes of the body returned as `bodyExcerpt`. */
  excerptBytes: number;
}

export type EgressResult =
  /** The receiver answered (any status; a 3xx is returned as is, never followed). */
  | { kind: 'response'; status: number; headers: Record<string, string>; bodyExcerpt: string; durationMs: number }
  /** Refused before connecting: scheme or address not allowed (SSRF guard). Permanent. */
  | { kind: 'refused'; reason: string; durationMs: number }
  /** No answer: DNS failure, connection error, TLS error or time-out. Retryable. */
  | { kind: 'error'; reason: string; timedOut: boolean; durationMs: number };

/**
 * Outbound HTTP for customer-controlled URLs: resolves the host once, refuses private, loopback,
 * link-local, CGNAT, multicast, metadata, IPv4-mapped, NAT64 and similar addresses, then connects to
 * exactly the address it checked (no second lookup), follows no redirect, caps time and body.
 */
export interface Egress {
  /** Why a URL may not be saved as a target (scheme, credentials, literal addresses, http to a host not loopback by name), or undefined. */
  check(url: string): string | undefined;
  post(request: EgressRequest): Promise<EgressResult>;
}
