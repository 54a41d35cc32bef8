/**
 * A `tags` row's effect: the member tagged or untagged like the tags API does, without starting
 * `tag_added` campaigns (a bulk change is the merchant's act, not the member's). The row's record
 * says whether the member's tags changed: the undo reverts only a change (a tag the member already
 * had stays; a tag removed is put back).
 */
import { NOTHING_OWED } from '../members';
import { AppError } from '../platform/errors';
import type { TransactStep } from '../platform/data/transactions';
import { tagMember, untagMember } from '../tags';
import type { BulkEffect } from './kind';
import * as repo from './repository';
import type { TagChange } from './tags-rows';

const noTriggers = async () => NOTHING_OWED;
const isNotFound = (err: unknown) => err instanceof AppError && err.code === 'NOT_FOUND';

/** Adds the tag with `steps`; false when the member had it already (nothing written). */
async function add(ws: string, memberId: string, tag: string, steps: () => TransactStep[]): Promise<boolean> {
  const { added } = await tagMember(ws, memberId, [tag], noTriggers, { seal: steps });
  return added.length > 0;
}

/** Removes the tag with `steps`; false when the member did not have it (nothing written). */
async function remove(ws: string, memberId: string, tag: string, steps: () => TransactStep[]): Promise<boolean> {
  try {
    await untagMember(ws, memberId, tag, undefined, { seal: steps });
    return true;
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
}

export const tagsEffect: BulkEffect<TagChange> = {
  async apply(job, memberId, { tag, action }, record) {
    const ws = job.workspaceId;
    const done = { tag, tagAction: action };
    const changed = await (action === 'add' ? add : remove)(ws, memberId, tag, () => [record({ ...done, changed: true })]);
    if (!changed) await repo.transactWrite([record({ ...done, changed: false })]);
  },
  async undo(job, row, steps) {
    const ws = job.workspaceId;
    const revert = row.changed && row.tag ? (row.tagAction === 'add' ? remove : add) : null;
    const reverted = revert ? await revert(ws, row.memberId, row.tag!, () => steps) : false;
    if (!reverted) await repo.transactWrite(steps);
  },
};
