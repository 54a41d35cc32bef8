import { exportSettings, runtimeConfig } from '../config';
import type { ObjectStore } from '../ports/object-store';
import { provided } from './provided';
import { S3ObjectStore } from './s3-object-store';

let store: ObjectStore | undefined;

/** The export bucket: the one provided (tests), else S3 (s3rver when `S3_ENDPOINT` is set). */
export function objectStoreFromConfig(): ObjectStore {
  if (provided.objectStore) return provided.objectStore;
  if (!store) {
    const cfg = runtimeConfig();
    if (!cfg.EXPORTS_BUCKET) throw new Error('EXPORTS_BUCKET is not set: this function declares no access to the export bucket');
    const s = exportSettings();
    store = new S3ObjectStore({
      bucket: cfg.EXPORTS_BUCKET,
      region: cfg.AWS_REGION,
      endpoint: cfg.S3_ENDPOINT,
      partBytes: s.uploadPartBytes,
      queueSize: s.uploadQueueSize,
    });
  }
  return store;
}
