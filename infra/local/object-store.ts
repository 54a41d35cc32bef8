import { mkdir } from 'node:fs/promises';
import S3rver from 's3rver';

export interface RunningS3 {
  endpoint: string;
  stop(): Promise<void>;
}

/** Buckets the platform uses; CDK names them in AWS, locally they have fixed names. */
export const LOCAL_BUCKETS = { exports: 'loyalty-exports' } as const;

/** s3rver in-process, files under `dir`, buckets created if missing. */
export async function startS3rver(dir: string): Promise<RunningS3> {
  await mkdir(dir, { recursive: true });
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory: dir,
    silent: true,
    configureBuckets: Object.values(LOCAL_BUCKETS).map((name) => ({ name })),
  });
  const { port } = await server.run();
  return { endpoint: `http://127.0.0.1:${port}`, stop: () => server.close() };
}
