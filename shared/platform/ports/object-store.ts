import type { Readable } from 'node:stream';

/** What an uploaded object is. */
export interface ObjectWrite {
  key: string;
  /** A stream of the object's bytes: read part by part, never held whole in memory. */
  body: Readable;
  contentType: string;
}

export interface SignedLinkOptions {
  /** Seconds the link stays valid (S3 allows at most 7 days; the platform uses minutes). */
  expiresInSeconds: number;
  /** File name the browser saves the download under (Content-Disposition). */
  filename: string;
}

/**
 * The export bucket. AWS: S3 with multipart uploads and presigned GETs; locally the same adapter
 * against s3rver. Keys are always built by the caller from the workspace of the credential.
 */
export interface ObjectStore {
  /** Streams `body` into the object (multipart); resolves with the bytes written. */
  upload(write: ObjectWrite): Promise<{ bytes: number }>;
  /** The object's bytes as a stream (to assemble a document from its parts). */
  read(key: string): Promise<Readable>;
  /** Removes objects; keys that do not exist are no error. */
  remove(keys: readonly string[]): Promise<void>;
  /** A fresh presigned GET of the object. */
  signedGetUrl(key: string, options: SignedLinkOptions): Promise<string>;
  /** A fresh presigned PUT of the object (a file the client uploads: an import's). */
  signedPutUrl(key: string, options: { expiresInSeconds: number }): Promise<string>;
}
