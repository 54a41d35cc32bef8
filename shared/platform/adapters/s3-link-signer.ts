import { S3RequestPresigner } from '@aws-sdk/s3-request-presigner';
import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ObjectStore, SignedLinkOptions } from '../ports/object-store';

/**
 * Presigned GETs and PUTs of the export bucket without the S3 client: the S3 presigner of the AWS SDK over a
 * plain request, so the functions that only hand out links (the exports area, the notices) do not
 * carry the whole S3 client. Same URL as `getSignedUrl` with a GetObjectCommand would give.
 */

/** The SDK's checksum interface over node:crypto (HMAC when given a secret). */
class Sha256 {
  private readonly h: Hash | Hmac;
  constructor(secret?: string | Uint8Array) {
    this.h = secret !== undefined ? createHmac('sha256', secret) : createHash('sha256');
  }
  update(data: string | Uint8Array): void {
    this.h.update(data);
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.h.digest());
  }
  reset(): void {
    throw new Error('not resettable');
  }
}

/** RFC 3986 encoding, as SigV4 canonicalises query values. */
const rfc3986 = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** A safe `filename="..."` value: printable ASCII without quotes or backslashes. */
export const dispositionOf = (filename: string): string => `attachment; filename="${filename.replace(/[^\x20-\x7e]|["\\]/g, '_')}"`;

export interface LinkSignerOptions {
  bucket: string;
  region: string;
  /** s3rver locally (path-style, its fixed key pair); else the function's own credentials. */
  endpoint?: string;
  env?: Record<string, string | undefined>;
}

export class S3LinkSigner implements Pick<ObjectStore, 'signedGetUrl' | 'signedPutUrl' | 'read'> {
  private readonly presigner: S3RequestPresigner;

  constructor(private readonly opts: LinkSignerOptions) {
    const env = opts.env ?? process.env;
    const credentials = async () =>
      opts.endpoint
        ? { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }
        : {
            accessKeyId: env.AWS_ACCESS_KEY_ID ?? '',
            secretAccessKey: env.AWS_SECRET_ACCESS_KEY ?? '',
            ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}),
          };
    this.presigner = new S3RequestPresigner({ credentials, region: opts.region, sha256: Sha256 as never });
  }

  signedGetUrl(key: string, options: SignedLinkOptions): Promise<string> {
    return this.presign('GET', key, { 'response-content-disposition': dispositionOf(options.filename) }, options.expiresInSeconds);
  }

  /** A presigned PUT of one object (an import file the client uploads itself). */
  signedPutUrl(key: string, options: { expiresInSeconds: number }): Promise<string> {
    return this.presign('PUT', key, {}, options.expiresInSeconds);
  }

  /**
   * The object's bytes through a presigned GET of a minute: what a function that only reads a file
   * (an import's) needs, without the S3 client in its bundle. A missing object rejects with `NoSuchKey`.
   */
  async read(key: string): Promise<Readable> {
    const res = await fetch(await this.presign('GET', key, {}, 60));
    if (res.status === 404) throw Object.assign(new Error(`No object ${key}`), { name: 'NoSuchKey' });
    if (!res.ok || !res.body) throw new Error(`Reading ${key} answered ${res.status}`);
    return Readable.fromWeb(res.body as never);
  }

  private async presign(method: 'GET' | 'PUT', key: string, query: Record<string, string>, expiresIn: number): Promise<string> {
    const local = this.opts.endpoint ? new URL(this.opts.endpoint) : undefined;
    const encodedKey = key.split('/').map(rfc3986).join('/');
    const hostname = local ? local.hostname : `${this.opts.bucket}.s3.${this.opts.region}.amazonaws.com`;
    const port = local?.port ? Number(local.port) : undefined;
    const path = local ? `/${this.opts.bucket}/${encodedKey}` : `/${encodedKey}`;
    const signed = await this.presigner.presign(
      {
        method,
        protocol: local ? local.protocol : 'https:',
        hostname,
        ...(port ? { port } : {}),
        path,
        query,
        headers: { host: port ? `${hostname}:${port}` : hostname },
      } as never,
      { expiresIn },
    );
    const signedQuery = Object.entries(signed.query ?? {})
      .map(([k, v]) => `${rfc3986(k)}=${rfc3986(String(v))}`)
      .join('&');
    return `${signed.protocol}//${hostname}${port ? `:${port}` : ''}${signed.path}?${signedQuery}`;
  }
}
