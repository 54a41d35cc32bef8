/** A `tags` row, pure: one tag key, and whether the member gets it (`add`) or loses it (`remove`). */
import { type BulkRowKind, type Check, combined, fail } from './checks';

export interface TagChange {
  tag: string;
  action: 'add' | 'remove';
}

const ACTIONS = ['add', 'remove'] as const;

export const tagsRows: BulkRowKind<TagChange> = {
  fields: ['tag', 'action'],
  change(f, tagsSchema) {
    const tag: Check<string> =
      typeof f.tag !== 'string' || f.tag === ''
        ? fail('tag', 'is required')
        : tagsSchema.safeParse({ tags: [f.tag] }).success
          ? { value: f.tag }
          : fail('tag', 'must be a tag key: lower-case letters, digits, - and _, at most 64');
    const action: Check<TagChange['action']> = (ACTIONS as readonly unknown[]).includes(f.action)
      ? { value: f.action as TagChange['action'] }
      : fail('action', 'must be add or remove');
    return combined([tag, action] as const, ([t, a]) => ({ tag: t, action: a }));
  },
  count(c, totals) {
    if (c.action === 'add') totals.tagged++;
    else totals.untagged++;
  },
};
