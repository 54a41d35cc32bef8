import { campaignEntity, type CampaignRecord } from '../program';
import { indexKeysOf, indexPartition, keyOf, skPrefix } from '../platform/data/keys';
import { StaleRead } from '../platform/data/concurrency';
import { deleteItem, getItem } from '../platform/data/items';
import { batchGetItems, indexPage, prefixPage, type Page } from '../platform/data/queries';
import type { TransactStep } from '../platform/data/transactions';
// The area's changes commit here: its services plan the steps and hand them over.
export { transactWrite } from '../platform/data/transactions';

const key = (workspaceId: string, campaignId: string) => keyOf('campaign', { workspaceId, campaignId });

/** A campaign read back as the program area's own type (it validated the whole definition when it wrote it). */
const campaignOf = <T extends CampaignRecord>(item: Record<string, unknown>) => campaignEntity.fromItem(item) as T;

export async function getCampaign<T extends CampaignRecord>(workspaceId: string, campaignId: string): Promise<T | undefined> {
  const item = await getItem<Record<string, unknown>>(key(workspaceId, campaignId));
  return item ? campaignOf<T>(item) : undefined;
}

/** A new campaign (its id is new: the condition only guards against an id clash). */
export function putCampaignStep(workspaceId: string, campaign: CampaignRecord): TransactStep {
  return {
    op: {
      Put: {
        Item: campaignEntity.toItem(campaign, { workspaceId }),
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  };
}

/**
 * An admin's change of a campaign we read, conditional on its version: it sets the definition
 * (`fields`, the version and time stamp among them) and never the grant counters, which grants add
 * to meanwhile without changing the version, so a change during traffic neither loses a count nor
 * has to be retried because of one.
 */
export function updateCampaignStep(
  workspaceId: string,
  campaignId: string,
  fields: Record<string, unknown>,
  expectedVersion: number,
  add: { grants: number; pointsGranted: number } = { grants: 0, pointsGranted: 0 },
): TransactStep {
  const names = Object.keys(fields).filter((n) => fields[n] !== undefined);
  const adding = add.grants !== 0 || add.pointsGranted !== 0;
  return {
    op: {
      Update: {
        Key: key(workspaceId, campaignId),
        UpdateExpression: `SET ${names.map((_, i) => `#f${i} = :f${i}`).join(', ')}${adding ? ' ADD grants :addGrants, pointsGranted :addPoints' : ''}`,
        ConditionExpression: 'version = :expected',
        ExpressionAttributeNames: Object.fromEntries(names.map((n, i) => [`#f${i}`, n])),
        ExpressionAttributeValues: {
          ':expected': expectedVersion,
          ...Object.fromEntries(names.map((n, i) => [`:f${i}`, fields[n]])),
          ...(adding ? { ':addGrants': add.grants, ':addPoints': add.pointsGranted } : {}),
        },
      },
    },
    onConditionFailed: () => new StaleRead('campaign'),
  };
}

export function deleteCampaignStep(workspaceId: string, campaignId: string, expectedVersion: number): TransactStep {
  return {
    op: { Delete: { Key: key(workspaceId, campaignId), ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': expectedVersion } } },
    onConditionFailed: () => new StaleRead('campaign'),
  };
}

export async function listCampaigns<T extends CampaignRecord>(workspaceId: string, limit: number, cursor?: string, status?: string): Promise<Page<T>> {
  const { pk } = keyOf('workspace', { workspaceId });
  const page = await prefixPage<Record<string, unknown>>(pk, skPrefix('campaign'), { limit, cursor, filters: [{ attr: 'status', op: '=', value: status }] });
  return { ...page, items: page.items.map((i) => campaignOf<T>(i)) };
}

/** Every campaign of the workspace (what an evaluation reads; a workspace holds at most a few hundred). */
export async function allCampaigns<T extends CampaignRecord>(workspaceId: string): Promise<T[]> {
  const { pk } = keyOf('workspace', { workspaceId });
  const out: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await prefixPage<Record<string, unknown>>(pk, skPrefix('campaign'), { limit: 200, cursor });
    out.push(...page.items.map((i) => campaignOf<T>(i)));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return out;
}

/** Shards of an unbudgeted campaign's counts: a grant adds to one, chosen at random. */
export const CAMPAIGN_TALLY_SHARDS = 8;

/**
 * Counts one grant of `points`, planned on the campaign at `version` with the budget it had then.
 * A campaign with a `budget` counts on its own item: only while it is still active, still has that
 * budget, and the points granted stay within it (DynamoDB compares with the budget minus this
 * grant); paused, ended, deleted, spent or given another budget meanwhile fails the condition and
 * the caller evaluates again. Without a budget it counts on one of its tally shards: parallel orders
 * of a busy workspace then rarely meet on an item (DynamoDB refuses concurrent transactions on one
 * item), and a pause takes effect as the cached campaign lists refresh. A shard folded into the
 * campaign's own counts by a later version (a budget set) refuses it: the grant is evaluated again
 * under the budget instead of being counted where the budget does not look.
 */
export function countGrantStep(workspaceId: string, campaignId: string, points: number, budget: number | null, version: number): TransactStep {
  if (budget === null) {
    const shard = String(Math.floor(Math.random() * CAMPAIGN_TALLY_SHARDS));
    return {
      op: {
        Update: {
          Key: keyOf('campaignTally', { workspaceId, campaignId, shard }),
          UpdateExpression: 'SET entity = :entity, campaignId = :id ADD grants :one, pointsGranted :points',
          ConditionExpression: 'attribute_not_exists(foldedVersion) OR foldedVersion < :version',
          ExpressionAttributeValues: { ':entity': 'campaignTally', ':id': campaignId, ':one': 1, ':points': points, ':version': version },
        },
      },
      onConditionFailed: () => new StaleRead('campaign'),
    };
  }
  return {
    op: {
      Update: {
        Key: key(workspaceId, campaignId),
        UpdateExpression: 'ADD grants :one, pointsGranted :points',
        ConditionExpression: '#status = :active AND #limits.#budget = :budget AND pointsGranted <= :most',
        ExpressionAttributeNames: { '#status': 'status', '#limits': 'limits', '#budget': 'totalPoints' },
        ExpressionAttributeValues: { ':one': 1, ':points': points, ':active': 'active', ':budget': budget, ':most': budget - points },
      },
    },
    onConditionFailed: () => new StaleRead('campaign'),
  };
}

/** One tally shard as read: its key and counts. */
export interface TallyShard {
  key: { pk: string; sk: string };
  campaignId: string;
  grants: number;
  pointsGranted: number;
}

/** The tally shards of one campaign, or of every campaign of the workspace (a Query, paged through). */
export async function tallyShards(workspaceId: string, campaignId?: string): Promise<TallyShard[]> {
  const { pk } = keyOf('campaignTally', { workspaceId, campaignId: '-', shard: '-' });
  const out: TallyShard[] = [];
  let cursor: string | undefined;
  do {
    // Every tally's sort key starts with its campaign's id (`cmp_...`).
    const page = await prefixPage<Record<string, unknown>>(pk, campaignId ? `${campaignId}#` : 'cmp_', { limit: 500, cursor, consistent: true });
    for (const i of page.items) {
      out.push({
        key: { pk: String(i.pk), sk: String(i.sk) },
        campaignId: String(i.campaignId),
        grants: Number(i.grants ?? 0),
        pointsGranted: Number(i.pointsGranted ?? 0),
      });
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return out;
}

/** What a change of a campaign moves from its shards into its own counts, and the steps that do. */
export interface Fold {
  add: { grants: number; pointsGranted: number };
  steps: TransactStep[];
}

export const NO_FOLD: Fold = { add: { grants: 0, pointsGranted: 0 }, steps: [] };

/**
 * Moves tally shards read as `shards` into the campaign's own counts (when a budget is set on a
 * campaign that had none, at `version`): `add` goes into the campaign's update, and every shard,
 * read or not yet written, is put back empty and marked folded at `version`, only if it still holds
 * what was read (a grant counted meanwhile fails the change, which reads again). A grant planned on
 * an earlier version and committed after the fold then finds its shard folded and is refused
 * (`countGrantStep`), so no grant is counted outside the budget.
 */
export function foldTallies(workspaceId: string, campaignId: string, shards: readonly TallyShard[], version: number): Fold {
  return {
    add: { grants: shards.reduce((n, s) => n + s.grants, 0), pointsGranted: shards.reduce((n, s) => n + s.pointsGranted, 0) },
    steps: Array.from({ length: CAMPAIGN_TALLY_SHARDS }, (_, i) => {
      const shardKey = keyOf('campaignTally', { workspaceId, campaignId, shard: String(i) });
      const read = shards.find((s) => s.key.sk === shardKey.sk);
      const Item = { ...shardKey, entity: 'campaignTally', campaignId, grants: 0, pointsGranted: 0, foldedVersion: version };
      const condition = read
        ? { ConditionExpression: 'grants = :g', ExpressionAttributeValues: { ':g': read.grants } }
        : { ConditionExpression: 'attribute_not_exists(pk)' };
      return { op: { Put: { Item, ...condition } }, onConditionFailed: () => new StaleRead('campaign') };
    }),
  };
}

/** Deletes a deleted campaign's tally shards (what a late grant adds afterwards stays unread). */
export function dropTallySteps(shards: readonly TallyShard[]): TransactStep[] {
  return shards.map((s) => ({ op: { Delete: { Key: s.key } } }));
}

const memberGrantsKey = (workspaceId: string, campaignId: string, memberId: string) => keyOf('campaignMemberGrants', { workspaceId, campaignId, memberId });

/** Counts the member's grant of the campaign, refusing the one beyond `limit` (the read it was planned on is then stale). */
export function countMemberGrantStep(workspaceId: string, campaignId: string, memberId: string, limit: number): TransactStep {
  return {
    op: {
      Update: {
        Key: memberGrantsKey(workspaceId, campaignId, memberId),
        UpdateExpression: 'SET entity = :entity ADD grants :one',
        ConditionExpression: 'attribute_not_exists(grants) OR grants < :limit',
        ExpressionAttributeValues: { ':one': 1, ':limit': limit, ':entity': 'campaignMemberGrants' },
      },
    },
    onConditionFailed: () => new StaleRead('campaign'),
  };
}

/** The member's grants so far of each campaign (0 where none). One BatchGetItem. */
export async function memberGrants(workspaceId: string, memberId: string, campaignIds: readonly string[]): Promise<Map<string, number>> {
  const out = new Map(campaignIds.map((id) => [id, 0]));
  if (!campaignIds.length) return out;
  const items = await batchGetItems<{ sk: string; grants?: number }>(campaignIds.map((id) => memberGrantsKey(workspaceId, id, memberId)));
  for (const id of campaignIds) {
    const { sk } = memberGrantsKey(workspaceId, id, memberId);
    out.set(id, items.find((i) => i.sk === sk)?.grants ?? 0);
  }
  return out;
}

const triggerGrantKey = (workspaceId: string, memberId: string, campaignId: string, occurrence: string) =>
  keyOf('campaignTriggerGrant', { workspaceId, memberId, campaignId, occurrence });

/**
 * Marks the campaign as granted for this occurrence of its trigger. Put only if absent: a retry or a
 * parallel run that planned on the same occurrence fails it and plans again (and then skips it).
 */
export function triggerGrantStep(workspaceId: string, memberId: string, campaignId: string, occurrence: string, at: string): TransactStep {
  return {
    op: {
      Put: {
        Item: { ...triggerGrantKey(workspaceId, memberId, campaignId, occurrence), entity: 'campaignTriggerGrant', campaignId, occurrence, grantedAt: at },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    onConditionFailed: () => new StaleRead('campaign grant'),
  };
}

/** The campaigns (of `campaignIds`) that already granted this occurrence to the member. One BatchGetItem. */
export async function triggerGranted(workspaceId: string, memberId: string, campaignIds: readonly string[], occurrence: string): Promise<Set<string>> {
  if (!campaignIds.length) return new Set();
  const items = await batchGetItems<{ campaignId: string }>(campaignIds.map((id) => triggerGrantKey(workspaceId, memberId, id, occurrence)));
  return new Set(items.map((i) => i.campaignId));
}

/** A trigger's rewards a change owes a member until its grant ran (`triggerOwed` in the keys). */
export interface OwedTrigger {
  memberId: string;
  type: 'member_created' | 'tag_added';
  /** The occurrence's name (`member_created`, `tag_added#v7`). */
  occurrence: string;
  /** When it occurred, in program time (ISO): the grant is dated at it. */
  at: string;
  /** tag_added: the tags the tagging added. */
  tags?: string[];
}

export function owedTriggerStep(workspaceId: string, owed: OwedTrigger): TransactStep {
  const params = { workspaceId, ...owed };
  return { op: { Put: { Item: { ...keyOf('triggerOwed', params), ...indexKeysOf('triggerOwed', params), entity: 'triggerOwed', ...owed } } } };
}

/** What is still owed of triggers that occurred by `through` (ISO), oldest first, a page at a time. */
export async function owedTriggers(workspaceId: string, through: string, limit: number, cursor?: string): Promise<Page<OwedTrigger>> {
  const page = await indexPage<OwedTrigger & Record<string, unknown>>('gsi2', indexPartition('triggerOwed', 'gsi2', { workspaceId }), {
    limit,
    cursor,
    forward: true,
    // '~' sorts after every id character: the range ends just after what occurred at `through`.
    range: { to: `${through}#~` },
  });
  return {
    ...page,
    items: page.items.map((i) => ({ memberId: i.memberId, type: i.type, occurrence: i.occurrence, at: i.at, ...(i.tags ? { tags: i.tags } : {}) })),
  };
}

/** The grant of an owed trigger ran: nothing is owed any more (deleting what is gone changes nothing). */
export async function clearOwedTrigger(workspaceId: string, memberId: string, occurrence: string): Promise<void> {
  await deleteItem({ Key: keyOf('triggerOwed', { workspaceId, memberId, occurrence }) });
}

/** How far the due-work run has looked for trigger occurrences. */
export interface TriggerProgress {
  /** The last local date (YYYY-MM-DD) whose birthdays were granted. */
  birthdaysThrough?: string;
  /** The program time up to which inactivity spells were looked for (ISO). */
  inactivityThrough?: string;
  /** When the members written before the birthday and activity indexes were put into them (ISO). */
  membersIndexed?: string;
}

export async function getTriggerProgress(workspaceId: string): Promise<TriggerProgress> {
  const item = await getItem<TriggerProgress>(keyOf('programTriggers', { workspaceId }));
  const fields = ['birthdaysThrough', 'inactivityThrough', 'membersIndexed'] as const;
  return Object.fromEntries(fields.flatMap((f) => (item?.[f] ? [[f, item[f]]] : [])));
}

/**
 * Records how far the run looked. Two runs at once may both write: a mark moved back only makes the
 * next run read again what it already granted, which the grant markers skip.
 */
export function triggerProgressStep(workspaceId: string, progress: TriggerProgress): TransactStep {
  const fields = Object.entries(progress);
  return {
    op: {
      Update: {
        Key: keyOf('programTriggers', { workspaceId }),
        UpdateExpression: `SET entity = :entity${fields.map(([k]) => `, ${k} = :${k}`).join('')}`,
        ExpressionAttributeValues: { ':entity': 'programTriggers', ...Object.fromEntries(fields.map(([k, v]) => [`:${k}`, v])) },
      },
    },
  };
}
