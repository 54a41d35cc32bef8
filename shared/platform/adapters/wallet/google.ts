import { importPKCS8, SignJWT } from 'jose';
import { config } from '../../config';
import type { GoogleCallOutcome, GoogleServiceAccount, GoogleWallet, GoogleWalletCredentials } from '../../ports/wallet';

const WALLET_SCOPE = 'https://www.googleapis.com/auth/wallet_object.issuer';
const SAVE_URL = 'https://pay.google.com/gp/v/save/';

/**
 * OAuth access tokens of a service account (JWT bearer grant at its `token_uri`), cached until
 * shortly before they expire. The Google Wallet adapter takes any token provider, so a local fake API
 * can be given a static token instead.
 */
export function serviceAccountTokenProvider(account: GoogleServiceAccount, timeoutMs = config.wallet.peerTimeoutMs): () => Promise<string> {
  let cached: { token: string; expiresAt: number } | undefined;
  return async () => {
    const now = Math.floor(Date.now() / 1000);
    if (cached && cached.expiresAt - 60 > now) return cached.token;
    const tokenUri = account.token_uri ?? 'https://oauth2.googleapis.com/token';
    const key = await importPKCS8(account.private_key, 'RS256');
    const assertion = await new SignJWT({ scope: WALLET_SCOPE })
      .setProtectedHeader({ alg: 'RS256', ...(account.private_key_id ? { kid: account.private_key_id } : {}) })
      .setIssuer(account.client_email)
      .setAudience(tokenUri)
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .sign(key);
    const res = await fetch(tokenUri, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!res.ok) throw new Error(`token endpoint answered ${res.status}`);
    const body = (await res.json()) as { access_token: string; expires_in?: number };
    cached = { token: body.access_token, expiresAt: now + (body.expires_in ?? 3600) };
    return cached.token;
  };
}

/** The Google Wallet REST API (`walletobjects/v1`) for loyalty classes and objects. */
export class RestGoogleWallet implements GoogleWallet {
  constructor(
    private readonly baseUrl: string,
    private readonly credentials: GoogleWalletCredentials,
    private readonly accessToken: () => Promise<string>,
    private readonly timeoutMs: number = config.wallet.peerTimeoutMs,
  ) {}

  private async send(method: 'POST' | 'PATCH', path: string, body: unknown): Promise<{ status: number | null; text: string }> {
    try {
      const token = await this.accessToken();
      const res = await fetch(`${this.baseUrl.replace(/\/$/, '')}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      return { status: res.status, text: (await res.text()).slice(0, 1024) };
    } catch (err) {
      return { status: null, text: (err as Error).message };
    }
  }

  private async upsert(resource: 'loyaltyClass' | 'loyaltyObject', value: Record<string, unknown> & { id: string }): Promise<GoogleCallOutcome> {
    const inserted = await this.send('POST', `/${resource}`, value);
    // 409: it exists already; bring it up to date instead.
    if (inserted.status === 409) return outcomeOf(await this.send('PATCH', `/${resource}/${encodeURIComponent(value.id)}`, value));
    return outcomeOf(inserted);
  }

  upsertClass(loyaltyClass: Record<string, unknown> & { id: string }): Promise<GoogleCallOutcome> {
    return this.upsert('loyaltyClass', loyaltyClass);
  }

  upsertObject(loyaltyObject: Record<string, unknown> & { id: string }): Promise<GoogleCallOutcome> {
    return this.upsert('loyaltyObject', loyaltyObject);
  }

  async patchObject(id: string, patch: Record<string, unknown>): Promise<GoogleCallOutcome> {
    return outcomeOf(await this.send('PATCH', `/loyaltyObject/${encodeURIComponent(id)}`, patch));
  }

  async saveUrl(object: { id: string; classId: string }, origins: string[]): Promise<string> {
    const account = this.credentials.serviceAccount;
    const key = await importPKCS8(account.private_key, 'RS256');
    const jwt = await new SignJWT({ typ: 'savetowallet', origins, payload: { loyaltyObjects: [{ id: object.id, classId: object.classId }] } })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', ...(account.private_key_id ? { kid: account.private_key_id } : {}) })
      .setIssuer(account.client_email)
      .setAudience('google')
      .setIssuedAt()
      .sign(key);
    return SAVE_URL + jwt;
  }
}

function outcomeOf(r: { status: number | null; text: string }): GoogleCallOutcome {
  if (r.status !== null && r.status >= 200 && r.status < 300) return { kind: 'ok' };
  if (r.status === null || r.status === 429 || r.status >= 500) return { kind: 'retry', status: r.status, reason: r.text };
  return { kind: 'failed', status: r.status, reason: r.text };
}
