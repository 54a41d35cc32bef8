/**
 * A filtered bulk job's members: the members list's own query (GET /api/v2/members with q, tier,
 * status and tag), walked page by page.
 */
import { listMembers } from '../members';
import type { MembersFilter } from './entities';

const PAGE = 100;

/** The ids of the members `filter` matches, a page at a time. */
export async function* filteredMembers(workspaceId: string, filter: MembersFilter): AsyncGenerator<string[]> {
  let cursor: string | undefined;
  do {
    const page = await listMembers(workspaceId, { ...filter, limit: PAGE, ...(cursor ? { cursor } : {}) } as Parameters<typeof listMembers>[1]);
    yield page.items.map((m) => m.id);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
}
