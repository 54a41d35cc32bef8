import { DeleteObjectsCommand, GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { Readable } from 'node:stream';
import type { ObjectStore, ObjectWrite, SignedLinkOptions } from '../ports/object-store';
import { S3LinkSigner } from './s3-link-signer';
import { traceClient } from '../observability/tracing';

export interface S3ObjectStoreOptions {
  bucket: string;
  region: string;
  /** s3rver locally (path-style addressing, its fixed credentials). */
  endpoint?: string;
  partBytes: number;
  queueSize: number;
}

/** s3rver accepts only its own default key pair. */
const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export class S3ObjectStore implements ObjectStore {
  private readonly client: S3Client;

  constructor(private readonly opts: S3ObjectStoreOptions) {
    this.client = traceClient(
      new S3Client({
        region: opts.region,
        ...(opts.endpoint ? { endpoint: opts.endpoint, forcePathStyle: true, credentials: S3RVER_CREDENTIALS } : {}),
      }),
    );
  }

  async upload(write: ObjectWrite): Promise<{ bytes: number }> {
    let bytes = 0;
    let sourceError: unknown;
    // The source's own failure is the one worth reporting: s3rver (no AbortMultipartUpload) would
    // otherwise surface its refusal of the abort instead.
    write.body.on('error', (err) => (sourceError ??= err));
    write.body.on('data', (chunk: Buffer | string) => (bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length));
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.opts.bucket, Key: write.key, Body: write.body, ContentType: write.contentType },
      partSize: this.opts.partBytes,
      queueSize: this.opts.queueSize,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (err) {
      throw sourceError ?? err;
    }
    if (sourceError) throw sourceError;
    return { bytes };
  }

  async read(key: string): Promise<Readable> {
    const out = await this.client.send(new GetObjectCommand({ Bucket: this.opts.bucket, Key: key }));
    return out.Body as Readable;
  }

  async remove(keys: readonly string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += 1000) {
      const batch = keys.slice(i, i + 1000);
      await this.client.send(new DeleteObjectsCommand({ Bucket: this.opts.bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }));
    }
  }

  /** Links are the link signer's (the same presigned GET, without the S3 client). */
  signedGetUrl(key: string, options: SignedLinkOptions): Promise<string> {
    this.signer ??= new S3LinkSigner(this.opts);
    return this.signer.signedGetUrl(key, options);
  }

  signedPutUrl(key: string, options: { expiresInSeconds: number }): Promise<string> {
    this.signer ??= new S3LinkSigner(this.opts);
    return this.signer.signedPutUrl(key, options);
  }

  private signer?: S3LinkSigner;
}
