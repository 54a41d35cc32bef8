import { connect, type ClientHttp2Session, type ClientHttp2Stream, type OutgoingHttpHeaders } from 'node:http2';
import { importPKCS8, SignJWT } from 'jose';
import { config } from '../../config';
import type { ApnsAuth, ApnsClient, ApnsOutcome } from '../../ports/wallet';

/**
 * A small APNs client on node:http2: one connection per process, reused, an ES256 provider token
 * (jose) renewed before its hour is up, or the pass-type certificate as TLS client certificate.
 * An `http://` base URL is cleartext HTTP/2 (h2c), which only a local fake server speaks.
 */
export class Http2ApnsClient implements ApnsClient {
  #session: ClientHttp2Session | undefined;
  #token: { value: string; mintedAt: number } | undefined;

  constructor(
    private readonly baseUrl: string,
    private readonly auth: ApnsAuth,
    /** The pass-type certificate and key, for certificate auth. */
    private readonly clientCertificate?: { certPem: string; keyPem: string },
    private readonly timeoutMs: number = config.wallet.peerTimeoutMs,
  ) {}

  private session(): ClientHttp2Session {
    if (this.#session && !this.#session.closed && !this.#session.destroyed) return this.#session;
    const tls = this.auth.mode === 'certificate' && this.clientCertificate ? { cert: this.clientCertificate.certPem, key: this.clientCertificate.keyPem } : {};
    const session = connect(this.baseUrl, tls);
    // Errors surface on the streams; an idle broken connection is simply replaced on the next push.
    session.on('error', () => undefined);
    session.unref();
    this.#session = session;
    return session;
  }

  private async providerToken(): Promise<string | undefined> {
    if (this.auth.mode !== 'token') return undefined;
    const now = Math.floor(Date.now() / 1000);
    if (this.#token && now - this.#token.mintedAt < config.wallet.apnsTokenRefreshSeconds) return this.#token.value;
    const key = await importPKCS8(this.auth.keyPem, 'ES256');
    const value = await new SignJWT({}).setProtectedHeader({ alg: 'ES256', kid: this.auth.keyId }).setIssuer(this.auth.teamId).setIssuedAt(now).sign(key);
    this.#token = { value, mintedAt: now };
    return value;
  }

  async push(pushToken: string, topic: string): Promise<ApnsOutcome> {
    let token: string | undefined;
    try {
      token = await this.providerToken();
    } catch (err) {
      return { kind: 'retry', status: null, reason: `provider token: ${(err as Error).message}` };
    }
    const headers: OutgoingHttpHeaders = {
      ':method': 'POST',
      ':path': `/3/device/${encodeURIComponent(pushToken)}`,
      'apns-topic': topic,
      'content-type': 'application/json',
      ...(token ? { authorization: `bearer ${token}` } : {}),
    };
    const answer = await new Promise<{ status: number; body: string } | { error: string }>((resolve) => {
      let stream: ClientHttp2Stream;
      try {
        stream = this.session().request(headers);
      } catch (err) {
        this.#session?.destroy();
        return resolve({ error: (err as Error).message });
      }
      let status = 0;
      let body = '';
      stream.setTimeout(this.timeoutMs, () => {
        stream.close();
        resolve({ error: `no answer within ${this.timeoutMs} ms` });
      });
      stream.on('response', (h) => (status = Number(h[':status'])));
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => (body += chunk.slice(0, 4096)));
      stream.on('end', () => resolve({ status, body }));
      stream.on('error', (err) => {
        this.#session?.destroy();
        resolve({ error: err.message });
      });
      // Apple's documented payload for pass updates: an empty dictionary.
      stream.end('{}');
    });
    if ('error' in answer) return { kind: 'retry', status: null, reason: answer.error };
    return apnsOutcome(answer.status, answer.body, () => (this.#token = undefined));
  }

  close(): void {
    this.#session?.close();
  }
}

/** What an APNs answer means for the registration (Apple's status and reason table). */
export function apnsOutcome(status: number, body: string, expiredToken: () => void = () => undefined): ApnsOutcome {
  if (status === 200) return { kind: 'delivered' };
  let reason = '';
  try {
    reason = String((JSON.parse(body) as { reason?: unknown }).reason ?? '');
  } catch {
    reason = '';
  }
  if (status === 410) return { kind: 'unregistered', status, reason: reason || 'Unregistered' };
  if (status === 400 && (reason === 'BadDeviceToken' || reason === 'DeviceTokenNotForTopic')) return { kind: 'unregistered', status, reason };
  if (status === 403 && reason === 'ExpiredProviderToken') {
    expiredToken();
    return { kind: 'retry', status, reason };
  }
  if (status === 429 || status >= 500) return { kind: 'retry', status, reason };
  return { kind: 'failed', status, reason };
}
