import { config } from '../platform/config';
import * as repo from './cors-repository';
import { TtlCache } from '../platform/cache';

/**
 * The origin checks of the HTTP chain, apart from the settings' schemas and writes so that every
 * function's bundle carries only these.
 */

/** Each workspace's allow-list as this container last read it (the actual consumer requests). */
const allowLists = new TtlCache<readonly string[]>(config.portal.cors.cacheSeconds * 1000, 1000);

/** Whether the workspace allows the origin (the actual request, whose credential names the workspace). */
export async function workspaceAllowsOrigin(workspaceId: string, origin: string): Promise<boolean> {
  const list = await allowLists.load(workspaceId, async () => (await repo.getCorsSettings(workspaceId))?.origins ?? []);
  return list.includes(origin);
}

/** Whether any workspace allows the origin (the preflight, which carries no credential). */
export const anyWorkspaceAllowsOrigin = (origin: string): Promise<boolean> => repo.originAllowedAnywhere(origin);

/** This container changed the workspace's list: read it again next time. */
export const forgetAllowList = (workspaceId: string): void => allowLists.invalidate(workspaceId);
