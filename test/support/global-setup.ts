import type { TestProject } from 'vitest/node';
import { startPlatform } from './platform';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
  }
}

/** One local runtime for the whole platform project; tests isolate themselves by workspace. */
export default async function setup(project: TestProject) {
  const platform = await startPlatform();
  project.provide('baseUrl', platform.baseUrl);
  project.provide('dataDir', platform.dataDir);
  return async () => {
    await platform.stop();
  };
}
