import { runtimeConfig } from '../config';
import type { ObjectStore } from '../ports/object-store';
import { provided } from './provided';
import { S3LinkSigner } from './s3-link-signer';

let signer: Pick<ObjectStore, 'signedGetUrl' | 'signedPutUrl' | 'read'> | undefined;

/** Only the presigned links of the export bucket (functions that hand out links and write nothing). */
export function linkSignerFromConfig(): Pick<ObjectStore, 'signedGetUrl' | 'signedPutUrl' | 'read'> {
  if (provided.objectStore) return provided.objectStore;
  if (!signer) {
    const cfg = runtimeConfig();
    if (!cfg.EXPORTS_BUCKET) throw new Error('EXPORTS_BUCKET is not set: this function declares no access to the export bucket');
    signer = new S3LinkSigner({ bucket: cfg.EXPORTS_BUCKET, region: cfg.AWS_REGION, endpoint: cfg.S3_ENDPOINT });
  }
  return signer;
}
