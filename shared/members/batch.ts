import * as repo from './repository';
import { itemError, parseItem, runInLanes, summarise, type BatchOutcome, type ItemError } from '../platform/validation/batch';
import { conflict } from '../platform/errors';
import { createMemberBody, type CreateMemberInput } from './schemas';
import { createMember, updateMemberRecord } from './service';
import type { MemberTriggers } from './triggers';

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
export async function upsertMembers(workspaceId: string, items: unknown[], triggers: MemberTriggers) {
  const laneOf = (item: unknown, i: number) => {
    const o = (item ?? {}) as Record<string, unknown>;
    return String(o.externalId ?? (typeof o.email === 'string' ? o.email.trim().toLowerCase() : undefined) ?? `#${i}`);
  };
  const results = await runInLanes(items, laneOf, 8, async (raw, index): Promise<MemberBatchResult> => {
    try {
      const { outcome, memberId } = await upsertMember(workspaceId, parseItem(createMemberBody, raw), triggers);
      return { index, outcome, memberId, error: null };
    } catch (err) {
      return { index, outcome: 'failed', memberId: null, error: itemError(err) };
    }
  });
  return { results, summary: summarise(results) };
}

/**
 * One upsert. A create that loses the race to a concurrent create of the same person (another
 * batch with the same item) re-reads and updates that member instead: an upsert, never a CONFLICT.
 */
async function upsertMember(
  workspaceId: string,
  input: CreateMemberInput,
  triggers: MemberTriggers,
  attempts = 2,
): Promise<{ outcome: BatchOutcome; memberId: string }> {
  const [byExternalId, byEmail] = await Promise.all([
    input.externalId ? repo.memberIdByExternalId(workspaceId, input.externalId) : undefined,
    input.email ? repo.memberIdByEmail(workspaceId, input.email) : undefined,
  ]);
  if (byExternalId && byEmail && byExternalId !== byEmail) {
    throw conflict('The externalId and the e-mail belong to two different members');
  }
  const target = byExternalId ?? byEmail;
  if (!target) {
    try {
      return { outcome: 'created', memberId: (await createMember(workspaceId, input, triggers)).id };
    } catch (err) {
      if (err instanceof repo.IdentityTaken && attempts > 1) return upsertMember(workspaceId, input, triggers, attempts - 1);
      throw err;
    }
  }
  const { changed } = await updateMemberRecord(workspaceId, target, input);
  return { outcome: changed ? 'updated' : 'unchanged', memberId: target };
}
