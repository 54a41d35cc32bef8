import * as repo from '../../data/repositories/members';
import { itemError, parseItem, runInLanes, summarise, type BatchOutcome, type ItemError } from '../batch';
import { conflict } from '../../errors';
import { createMemberBody } from './schemas';
import { createMember, updateMemberRecord } from './service';

export interface MemberBatchResult {
  index: number;
  outcome: BatchOutcome;
  memberId: string | null;
  error: ItemError | null;
}

/**
 * Upserts members: matched by externalId first, then e-mail; updated where something differs,
 * created where nothing matches. Items naming the same person run in order; the rest in parallel.
 */
export async function upsertMembers(workspaceId: string, items: unknown[]) {
  const laneOf = (item: unknown, i: number) => {
    const o = (item ?? {}) as Record<string, unknown>;
    return String(o.externalId ?? (typeof o.email === 'string' ? o.email.trim().toLowerCase() : undefined) ?? `#${i}`);
  };
  const results = await runInLanes(items, laneOf, 8, async (raw, index): Promise<MemberBatchResult> => {
    try {
      const input = parseItem(createMemberBody, raw);
      const [byExternalId, byEmail] = await Promise.all([
        input.externalId ? repo.memberIdByExternalId(workspaceId, input.externalId) : undefined,
        input.email ? repo.memberIdByEmail(workspaceId, input.email) : undefined,
      ]);
      if (byExternalId && byEmail && byExternalId !== byEmail) {
        throw conflict('The externalId and the e-mail belong to two different members');
      }
      const target = byExternalId ?? byEmail;
      if (!target) {
        const member = await createMember(workspaceId, input);
        return { index, outcome: 'created', memberId: member.id, error: null };
      }
      const { changed } = await updateMemberRecord(workspaceId, target, input);
      return { index, outcome: changed ? 'updated' : 'unchanged', memberId: target, error: null };
    } catch (err) {
      return { index, outcome: 'failed', memberId: null, error: itemError(err) };
    }
  });
  return { results, summary: summarise(results) };
}
