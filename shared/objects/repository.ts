import { objectRecordEntity, objectTypeEntity, type ObjectTypeRecord, type RecordItem } from './entities';
import { conflict } from '../platform/errors';
import { ENTITIES, indexKeyAttributes, indexKeysOf, indexPartition, indexSortKey, keyOf, skPrefix } from '../platform/data/keys';
import { StaleRead } from '../platform/data/concurrency';
import { getItem } from '../platform/data/items';
import { batchGetItems, indexPage, type Page, prefixPage, queryRaw } from '../platform/data/queries';
import { transactWrite, type TransactStep } from '../platform/data/transactions';
// The area's changes commit here: its services plan the steps and hand them over.
export { transactWrite } from '../platform/data/transactions';
// The write-rate guard's counters (a platform store shared by every guard), for this area's guard.
export { countRateWindows, type RateStoreClient } from '../platform/data/rate-windows-repository';

const typeKey = (workspaceId: string, type: string) => keyOf('objectType', { workspaceId, type });

export async function getObjectType(workspaceId: string, type: string): Promise<ObjectTypeRecord | undefined> {
  const item = await getItem<Record<string, unknown>>(typeKey(workspaceId, type));
  return item ? objectTypeEntity.fromItem(item) : undefined;
}

export async function listObjectTypes(workspaceId: string): Promise<ObjectTypeRecord[]> {
  const out: ObjectTypeRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await prefixPage<Record<string, unknown>>(keyOf('workspace', { workspaceId }).pk, skPrefix('objectType'), { limit: 200, cursor });
    out.push(...page.items.map(objectTypeEntity.fromItem));
    cursor = page.nextCursor;
  } while (cursor);
  return out.sort((a, b) => a.type.localeCompare(b.type));
}

/**
 * Creates or replaces a type definition. A replacement is conditional on the version we read and,
 * when the change is breaking, on the type having no live record (checked in the same write).
 * `steps` (its audit entry) join the same transaction.
 */
export async function putObjectType(next: ObjectTypeRecord, previous: ObjectTypeRecord | undefined, breaking: boolean, steps: TransactStep[]): Promise<void> {
  const condition = previous ? `version = :v${breaking ? ' AND (attribute_not_exists(recordCount) OR recordCount = :zero)' : ''}` : 'attribute_not_exists(pk)';
  await transactWrite([
    {
      op: {
        Put: {
          Item: objectTypeEntity.toItem(next),
          ConditionExpression: condition,
          ExpressionAttributeValues: previous ? { ':v': previous.version, ...(breaking ? { ':zero': 0 } : {}) } : undefined,
        },
      },
      onConditionFailed: () => (previous ? new StaleRead('object type') : conflict('The object type was created meanwhile; read it and retry')),
    },
    ...steps,
  ]);
}

/** Keeps the live-record count of a type, in the record's own transaction; guards the type version. */
export function countStep(workspaceId: string, type: string, delta: 1 | -1, typeVersion?: number): TransactStep {
  return {
    op: {
      Update: {
        Key: typeKey(workspaceId, type),
        UpdateExpression: 'ADD recordCount :d',
        ConditionExpression: typeVersion === undefined ? 'attribute_exists(pk)' : 'attribute_exists(pk) AND version = :v',
        ExpressionAttributeValues: { ':d': delta, ...(typeVersion === undefined ? {} : { ':v': typeVersion }) },
      },
    },
    onConditionFailed: () => new StaleRead('object type'),
  };
}

const recordKey = (workspaceId: string, type: string, recordId: string) => keyOf('objectRecord', { workspaceId, type, recordId });

export function putRecordStep(r: RecordItem, titleKey: string): TransactStep {
  return {
    op: {
      Put: {
        Item: objectRecordEntity.toItem({ ...r, rev: 1 }, { titleKey }),
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  };
}

/** A value an indexed field of a record holds: the record is listed under it. */
export interface IndexedValue {
  field: string;
  value: unknown;
}

/** The record a value entry lists: its keys and orders, and the copy of its data (if any). */
export interface EntryOwner {
  workspaceId: string;
  type: string;
  id: string;
  createdAt: string;
  updatedAt: string;
  /** Left out for a large record (the list then fetches it by key). */
  data?: Record<string, unknown>;
}

const valueEntryKey = (workspaceId: string, type: string, recordId: string, field: string) =>
  keyOf('objectRecordValue', { workspaceId, type, recordId, field });

/** The entry of a record under one value: the record's three orders, its id and the copy of its data. */
export function valueEntryItem(r: EntryOwner, titleKey: string, v: IndexedValue): Record<string, unknown> {
  return {
    ...valueEntryKey(r.workspaceId, r.type, r.id, v.field),
    ...indexKeysOf('objectRecordValue', {
      workspaceId: r.workspaceId,
      type: r.type,
      recordId: r.id,
      field: v.field,
      value: JSON.stringify(v.value),
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
      titleKey,
    }),
    entity: 'objectRecordValue',
    id: r.id,
    ...(r.data ? { data: r.data } : {}),
  };
}

/** Writes (or rewrites: another value, order or data) a record's entry under a value. */
export const putValueEntryStep = (r: EntryOwner, titleKey: string, v: IndexedValue): TransactStep => ({
  op: { Put: { Item: valueEntryItem(r, titleKey, v) } },
});

/** Removes a record's entry under a field's value (the field lost its value, or the record is deleted). */
export const deleteValueEntryStep = (workspaceId: string, type: string, recordId: string, field: string): TransactStep => ({
  op: { Delete: { Key: valueEntryKey(workspaceId, type, recordId, field) } },
});

export async function getRecord(workspaceId: string, type: string, recordId: string): Promise<RecordItem | undefined> {
  const item = await getItem<Record<string, unknown>>(recordKey(workspaceId, type, recordId));
  return item ? objectRecordEntity.fromItem(item) : undefined;
}

/** A counted field's value the write expects the record to still hold (undefined: absent). */
export interface ExpectedValue {
  field: string;
  value: unknown;
}

/** What a write does to a record's data and its lower-cased search copy. */
export type RecordChange =
  | { kind: 'replace'; data: Record<string, unknown>; search: Record<string, string> }
  | {
      kind: 'merge';
      /**
       * Per field: a value sets it, null removes it. `search`: the field's new search copy (null
       * removes it; absent leaves it alone, for fields that are not searchable).
       */
      fields: { key: string; value: unknown; search?: string | null }[];
    };

export interface RecordUpdate {
  updatedAt: string;
  change: RecordChange;
  /** The record's new title key, when the write changes its title. */
  titleKey?: string;
  /** The write applies only while the record still holds these values. */
  expected: ExpectedValue[];
  /**
   * For a write that moves the record's value entries (or could make them stale): the revision it
   * read (undefined: a record from before revisions). The write applies only at that revision and
   * moves it on, so entries computed from a stale read never commit.
   */
  revision?: { read: number | undefined };
}

/** The revision guard of a write (condition and SET); shares the caller's value map. */
function revisionGuard(revision: { read: number | undefined } | undefined, values: Record<string, unknown>): { condition: string[]; set: string[] } {
  if (!revision) return { condition: [], set: [] };
  values[':nextRev'] = (revision.read ?? 0) + 1;
  if (revision.read === undefined) return { condition: ['attribute_not_exists(rev)'], set: ['rev = :nextRev'] };
  values[':rev'] = revision.read;
  return { condition: ['rev = :rev'], set: ['rev = :nextRev'] };
}

/** Conditions on the expected values; they share the caller's name and value maps. */
function expectedConditions(expected: ExpectedValue[], names: Record<string, string>, values: Record<string, unknown>): string[] {
  return expected.map(({ field, value }, i) => {
    names['#data'] = 'data';
    names[`#c${i}`] = field;
    if (value === undefined) return `attribute_not_exists(#data.#c${i})`;
    values[`:c${i}`] = value;
    return `#data.#c${i} = :c${i}`;
  });
}

const LIVE_RECORD = ['attribute_exists(pk)', 'attribute_not_exists(deletedAt)'];

/**
 * Updates a live record in one expression, field by field for a merge (never a rewrite of the whole
 * data, so concurrent changes of different fields both survive). The updated and title indexes
 * follow. Deleted meanwhile, or an expected value changed: StaleRead, so the caller re-reads.
 */
export function updateRecordStep(workspaceId: string, type: string, recordId: string, u: RecordUpdate): TransactStep {
  const updated = indexSortKey('objectRecord', INDEX_OF_SORT.updated_desc.index, { updatedAt: u.updatedAt, recordId });
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':now': u.updatedAt, ':u': updated.value };
  const sets = ['updatedAt = :now', `${updated.attribute} = :u`];
  const removes: string[] = [];
  if (u.change.kind === 'replace') {
    Object.assign(names, { '#data': 'data', '#search': 'search' });
    sets.push('#data = :data', '#search = :search');
    Object.assign(values, { ':data': u.change.data, ':search': u.change.search });
  } else {
    u.change.fields.forEach(({ key, value, search }, i) => {
      names['#data'] = 'data';
      names[`#f${i}`] = key;
      if (value === null) removes.push(`#data.#f${i}`);
      else {
        sets.push(`#data.#f${i} = :f${i}`);
        values[`:f${i}`] = value;
      }
      if (search === undefined) return;
      names['#search'] = 'search';
      if (search === null) removes.push(`#search.#f${i}`);
      else {
        sets.push(`#search.#f${i} = :s${i}`);
        values[`:s${i}`] = search;
      }
    });
  }
  if (u.titleKey !== undefined) {
    const title = indexSortKey('objectRecord', INDEX_OF_SORT.title_asc.index, { titleKey: u.titleKey, recordId });
    values[':t'] = title.value;
    sets.push(`${title.attribute} = :t`);
  }
  const guards = expectedConditions(u.expected, names, values);
  const rev = revisionGuard(u.revision, values);
  sets.push(...rev.set);
  return {
    op: {
      Update: {
        Key: recordKey(workspaceId, type, recordId),
        UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
        ConditionExpression: [...LIVE_RECORD, ...guards, ...rev.condition].join(' AND '),
        ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
        ExpressionAttributeValues: values,
      },
    },
    onConditionFailed: () => new StaleRead('record'),
  };
}

/**
 * Soft delete: marks the record deleted and drops its index keys, so it leaves every list while
 * its data stays (its value entries go in the same transaction). Same conditions as an update.
 */
export function softDeleteRecordStep(
  workspaceId: string,
  type: string,
  recordId: string,
  deletedAt: string,
  expected: ExpectedValue[],
  revision?: { read: number | undefined },
): TransactStep {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':now': deletedAt };
  const guards = expectedConditions(expected, names, values);
  const rev = revisionGuard(revision, values);
  return {
    op: {
      Update: {
        Key: recordKey(workspaceId, type, recordId),
        UpdateExpression: `SET ${['deletedAt = :now', ...rev.set].join(', ')} REMOVE ${indexKeyAttributes('objectRecord').join(', ')}`,
        ConditionExpression: [...LIVE_RECORD, ...guards, ...rev.condition].join(' AND '),
        ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
        ExpressionAttributeValues: values,
      },
    },
    onConditionFailed: () => new StaleRead('record'),
  };
}

export const INDEX_OF_SORT = {
  created_desc: { index: 'gsi1', forward: false },
  created_asc: { index: 'gsi1', forward: true },
  updated_desc: { index: 'gsi2', forward: false },
  title_asc: { index: 'gsi3', forward: true },
} as const;

export type SortBy = keyof typeof INDEX_OF_SORT;

/** Which records a list keeps; every part present must hold. */
export interface RecordMatch {
  /** The field holds exactly this value. */
  equals: { field: string; value: unknown }[];
  /** One of these fields holds the member id (no field: nothing matches). */
  member?: { fields: string[]; memberId: string };
  /** The search copy of one of these fields contains the text (no field: nothing matches). */
  text?: { fields: string[]; contains: string };
}

export interface RecordFilter {
  expression?: string;
  names: Record<string, string>;
  values: Record<string, unknown>;
}

const NOTHING = 'attribute_not_exists(pk)';

/** The FilterExpression of a match: its parts ANDed, each alternative list ORed. */
export function recordFilter(match: RecordMatch): RecordFilter {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const parts = match.equals.map(({ field, value }, n) => {
    names['#data'] = 'data';
    names[`#k${n}`] = field;
    values[`:k${n}`] = value;
    return `#data.#k${n} = :k${n}`;
  });
  if (match.member) {
    if (match.member.fields.length === 0) parts.push(NOTHING);
    else {
      names['#data'] = 'data';
      values[':member'] = match.member.memberId;
      parts.push(`(${match.member.fields.map((f, i) => ((names[`#m${i}`] = f), `#data.#m${i} = :member`)).join(' OR ')})`);
    }
  }
  if (match.text) {
    if (match.text.fields.length === 0) parts.push(NOTHING);
    else {
      names['#search'] = 'search';
      values[':q'] = match.text.contains;
      parts.push(`(${match.text.fields.map((f, i) => ((names[`#s${i}`] = f), `contains(#search.#s${i}, :q)`)).join(' OR ')})`);
    }
  }
  return { expression: parts.length ? parts.join(' AND ') : undefined, names, values };
}

/**
 * A window of one type's live records in a sort order, skipping `offset` matches, plus the number
 * of all matches when asked. Reads only that type's index partition, never the workspace.
 */
export async function recordWindow(
  workspaceId: string,
  type: string,
  sortBy: SortBy,
  match: RecordMatch,
  offset: number,
  limit: number,
  countAll: boolean,
): Promise<{ items: RecordItem[]; total?: number }> {
  const { index, forward } = INDEX_OF_SORT[sortBy];
  const filter = recordFilter(match);
  const partition = indexPartition('objectRecord', index, { workspaceId, type });
  const base = {
    IndexName: index,
    KeyConditionExpression: `${index}pk = :pk`,
    ...(filter.expression ? { FilterExpression: filter.expression } : {}),
    ...(Object.keys(filter.names).length ? { ExpressionAttributeNames: filter.names } : {}),
    ExpressionAttributeValues: { ...filter.values, ':pk': partition },
    ScanIndexForward: forward,
  };
  const items: RecordItem[] = [];
  let skipped = 0;
  let start: Record<string, unknown> | undefined;
  // Unfiltered, every item read is a match: read exactly the window. Filtered, read in modest pages
  // (never DynamoDB's default 1 MB) until the window is full.
  const wanted = offset + limit;
  do {
    const remaining = wanted - skipped - items.length;
    const out = await queryRaw({ ...base, Limit: filter.expression ? Math.max(remaining, 100) : remaining, ExclusiveStartKey: start });
    for (const raw of out.Items ?? []) {
      if (skipped < offset) skipped++;
      else if (items.length < limit) items.push(objectRecordEntity.fromItem(raw));
    }
    start = out.LastEvaluatedKey;
  } while (start && items.length < limit);
  if (!countAll) return { items };
  let total = 0;
  start = undefined;
  do {
    const out = await queryRaw({ ...base, Select: 'COUNT', ExclusiveStartKey: start });
    total += out.Count ?? 0;
    start = out.LastEvaluatedKey;
  } while (start);
  return { items, total };
}

/** A cursor page of one type's live records, newest first (a deleted record has left the index). */
export async function recordPage(workspaceId: string, type: string, limit: number, cursor?: string): Promise<Page<RecordItem>> {
  const partition = indexPartition('objectRecord', INDEX_OF_SORT.created_desc.index, { workspaceId, type });
  const page = await indexPage<Record<string, unknown>>(INDEX_OF_SORT.created_desc.index, partition, { limit, cursor });
  return { ...page, items: page.items.map(objectRecordEntity.fromItem) };
}

/**
 * A window of the live records holding one value of an indexed field, in a sort order, skipping
 * `offset`: one Query of that value's entries (`offset` entries are read to be skipped, keys only
 * while nothing of them is kept). Entries carry the record's data; the few that do not (large
 * records) are fetched with one BatchGetItem, and left out if the record no longer holds the value.
 */
export async function valueWindow(
  workspaceId: string,
  type: string,
  sortBy: SortBy,
  wanted: IndexedValue,
  offset: number,
  limit: number,
): Promise<{ id: string; data: Record<string, unknown> }[]> {
  const { index, forward } = INDEX_OF_SORT[sortBy];
  const partition = indexPartition('objectRecordValue', index, { workspaceId, type, field: wanted.field, value: JSON.stringify(wanted.value) });
  const entries: Record<string, unknown>[] = [];
  let seen = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const skipping = offset - seen;
    const out = await queryRaw({
      IndexName: index,
      KeyConditionExpression: `${index}pk = :pk`,
      ExpressionAttributeValues: { ':pk': partition },
      ScanIndexForward: forward,
      // The skipped entries first (keys only: their data is not needed), then the window.
      ...(skipping > 0 ? { ProjectionExpression: `pk, sk, ${index}pk, ${index}sk`, Limit: skipping } : { Limit: offset + limit - seen }),
      ExclusiveStartKey: start,
    });
    for (const entry of out.Items ?? []) if (seen++ >= offset) entries.push(entry);
    start = out.LastEvaluatedKey;
  } while (start && seen < offset + limit);
  const large = entries.filter((e) => e.data === undefined).map((e) => ({ pk: e.pk as string, sk: ENTITIES.objectRecord.sk }));
  const fetched = new Map(
    (large.length ? await batchGetItems<Record<string, unknown>>(large, { consistent: false }) : [])
      .map(objectRecordEntity.fromItem)
      .filter((r) => !r.deletedAt && r.data[wanted.field] === wanted.value)
      .map((r) => [r.id, r.data]),
  );
  return entries.flatMap((e) => {
    const data = (e.data as Record<string, unknown> | undefined) ?? fetched.get(e.id as string);
    return data ? [{ id: e.id as string, data }] : [];
  });
}

/** Counter moves of one write: +1/-1 per (field, value) of a counted field. */
export interface CounterMove {
  field: string;
  value: unknown;
  delta: 1 | -1;
}

const counterKey = (workspaceId: string, type: string, field: string, value: unknown) =>
  keyOf('objectCounter', { workspaceId, type, field, value: JSON.stringify(value) });

export function counterSteps(workspaceId: string, type: string, moves: CounterMove[]): TransactStep[] {
  return moves.map((m) => ({
    op: {
      Update: {
        Key: counterKey(workspaceId, type, m.field, m.value),
        UpdateExpression: 'SET entity = :e ADD n :d',
        ExpressionAttributeValues: { ':e': 'objectCounter', ':d': m.delta },
      },
    },
  }));
}

export async function counterValue(workspaceId: string, type: string, field: string, value: unknown): Promise<number> {
  return (await getItem<{ n?: number }>(counterKey(workspaceId, type, field, value)))?.n ?? 0;
}
