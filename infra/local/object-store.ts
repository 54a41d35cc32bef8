import { mkdir } from 'node:fs/promises';
import S3rver from 's3rver';

export interface RunningS3 {
  endpoint: string;
  stop(): Promise<void>;
}

/** Buckets the platform uses; CDK names them in AWS, locally they have fixed names. */
export const LOCAL_BUCKETS = { exports: 'loyalty-exports' } as const;

/**
 * The console uploads an import file from the browser straight to its presigned link: a PUT from
 * the console's origin to the bucket's, so the bucket answers the preflight for the console's
 * origin as the AWS bucket does (infra/app/constructs/exports.ts). Locally the console is on a
 * loopback address whose port is picked at start, after the stores: any port of the loopback names.
 */
const CONSOLE_UPLOADS_CORS = `<CORSConfiguration>
  <CORSRule>
    <AllowedOrigin>http://127.0.0.1:*</AllowedOrigin>
    <AllowedOrigin>http://localhost:*</AllowedOrigin>
    <AllowedMethod>PUT</AllowedMethod>
    <AllowedHeader>content-type</AllowedHeader>
    <MaxAgeSeconds>3000</MaxAgeSeconds>
  </CORSRule>
</CORSConfiguration>`;

/** s3rver in-process, files under `dir`, buckets created if missing. */
export async function startS3rver(dir: string): Promise<RunningS3> {
  await mkdir(dir, { recursive: true });
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory: dir,
    silent: true,
    configureBuckets: Object.values(LOCAL_BUCKETS).map((name) => ({ name, configs: [CONSOLE_UPLOADS_CORS] })),
  });
  const { port } = await server.run();
  return { endpoint: `http://127.0.0.1:${port}`, stop: () => server.close() };
}
