import * as repo from './repository';
import { withOptimisticRetry } from '../platform/data/concurrency';
import type { Page } from '../platform/data/queries';
import { transactWrite } from './repository';
import { event, publish } from '../platform/events/outbox';
import { conflict, notFound } from '../platform/errors';
import { loadMember, loadWritableMember, type MemberTriggers, type OwedGrants } from '../members';
import { sealSteps, type WriteOptions } from '../platform/data/write-options';
import { MAX_TAGS_PER_MEMBER, TAG_KEY, type MemberTag, type Tag, type TagMemberResult } from './schemas';

const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export async function listTags(workspaceId: string, query: { limit: number; cursor?: string; prefix?: string }): Promise<Page<Tag>> {
  return repo.listTags(workspaceId, query);
}

/** The member's tags. Member and tag items are read in parallel; an unknown or malformed id is 404. */
export async function memberTags(workspaceId: string, memberId: string): Promise<{ memberId: string; tags: MemberTag[] }> {
  const [, tags] = await Promise.all([loadMember(workspaceId, memberId), repo.memberTagsOf(workspaceId, memberId)]);
  return { memberId, tags };
}

/**
 * Adds tags to a member. Tags the member already has change nothing and emit nothing; each newly
 * added tag emits `member.tagged`. Member list, per-member items, counters and the events commit in
 * one transaction conditional on the member's profile version (concurrent changes re-read).
 */
export async function tagMember(
  workspaceId: string,
  memberId: string,
  requested: string[],
  triggers: MemberTriggers,
  opts: WriteOptions<TagMemberResult> = {},
  now = () => new Date(),
): Promise<TagMemberResult> {
  const wanted = [...new Set(requested)];
  // What the committed tagging owes of tag_added campaigns (named by the profile version it writes: once per tagging).
  let owed: OwedGrants | undefined;
  const result = await withOptimisticRetry(async () => {
    const [member, current] = await Promise.all([loadWritableMember(workspaceId, memberId), repo.memberTagsOf(workspaceId, memberId)]);
    const added = wanted.filter((t) => !member.tags.includes(t)).sort(byKey);
    if (added.length === 0) return { memberId, tags: current, added };
    const tags = [...new Set([...member.tags, ...added])].sort(byKey);
    if (tags.length > MAX_TAGS_PER_MEMBER) throw conflict(`A member can carry at most ${MAX_TAGS_PER_MEMBER} tags (has ${member.tags.length})`);
    const at = now();
    const iso = at.toISOString();
    const result: TagMemberResult = {
      memberId,
      tags: [...current.filter((t) => !added.includes(t.key)), ...added.map((key) => ({ key, taggedAt: iso }))].sort((a, b) => byKey(a.key, b.key)),
      added,
    };
    const owing = await triggers(workspaceId, memberId, { type: 'tag_added', key: `tag_added#v${member.version + 1}`, tags: added });
    await transactWrite([
      ...repo.addTagsSteps(member, tags, added, iso),
      ...owing.steps,
      ...publish(
        workspaceId,
        added.map((tag) => event('member.tagged', { resource_id: memberId, member_ref: memberId, tag }, at)),
      ),
      ...sealSteps(opts, result),
    ]);
    owed = owing;
    return result;
  });
  await owed?.settle();
  return result;
}

/** Removes one tag; a tag the member does not carry (or a malformed key) is 404, like an unknown member. */
export async function untagMember(
  workspaceId: string,
  memberId: string,
  tag: string,
  now = () => new Date(),
  /** Further steps of the same transaction (a bulk job's row record). */
  opts: WriteOptions<void> = {},
): Promise<void> {
  await withOptimisticRetry(async () => {
    const member = await loadWritableMember(workspaceId, memberId);
    if (!TAG_KEY.test(tag) || !member.tags.includes(tag)) throw notFound('Tag');
    await transactWrite([
      ...repo.removeTagSteps(
        member,
        member.tags.filter((t) => t !== tag),
        tag,
        now().toISOString(),
      ),
      ...sealSteps(opts, undefined),
    ]);
  });
}
