import type { ObjectTypeRecord, RecordItem } from '../../domain/objects/types';
import { conflict } from '../../domain/errors';
import { indexKeysOf, indexPartition, keyOf, skPrefix } from '../keys';
import { getItem, prefixPage, putItem, isConditionFailed, StaleRead, queryRaw, type TransactStep } from '../table';

const strip = <T>({ pk: _pk, sk: _sk, entity: _e, gsi1pk: _a, gsi1sk: _b, gsi2pk: _c, gsi2sk: _d, gsi3pk: _f, gsi3sk: _g, ...rest }: Record<string, unknown>) => rest as T;

const typeKey = (workspaceId: string, type: string) => keyOf('objectType', { workspaceId, type });

export async function getObjectType(workspaceId: string, type: string): Promise<ObjectTypeRecord | undefined> {
  const item = await getItem<Record<string, unknown>>(typeKey(workspaceId, type));
  return item ? strip<ObjectTypeRecord>(item) : undefined;
}

export async function listObjectTypes(workspaceId: string): Promise<ObjectTypeRecord[]> {
  const out: ObjectTypeRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await prefixPage<Record<string, unknown>>(keyOf('workspace', { workspaceId }).pk, skPrefix('objectType'), { limit: 200, cursor });
    out.push(...page.items.map((i) => strip<ObjectTypeRecord>(i)));
    cursor = page.nextCursor;
  } while (cursor);
  return out.sort((a, b) => a.type.localeCompare(b.type));
}

/**
 * Creates or replaces a type definition. A replacement is conditional on the version we read and,
 * when the change is breaking, on the type having no live record (checked in the same write).
 */
export async function putObjectType(next: ObjectTypeRecord, previous: ObjectTypeRecord | undefined, breaking: boolean): Promise<void> {
  const condition = previous
    ? `version = :v${breaking ? ' AND (attribute_not_exists(recordCount) OR recordCount = :zero)' : ''}`
    : 'attribute_not_exists(pk)';
  try {
    await putItem({
      Item: { ...typeKey(next.workspaceId, next.type), entity: 'objectType', ...next },
      ConditionExpression: condition,
      ExpressionAttributeValues: previous ? { ':v': previous.version, ...(breaking ? { ':zero': 0 } : {}) } : undefined,
    });
  } catch (err) {
    if (!isConditionFailed(err)) throw err;
    throw previous ? new StaleRead('object type') : conflict('The object type was created meanwhile; read it and retry');
  }
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

export const recordKey = (workspaceId: string, type: string, recordId: string) => keyOf('objectRecord', { workspaceId, type, recordId });

export function putRecordStep(r: RecordItem, titleKey: string): TransactStep {
  return {
    op: {
      Put: {
        Item: {
          ...recordKey(r.workspaceId, r.type, r.id),
          ...indexKeysOf('objectRecord', { workspaceId: r.workspaceId, type: r.type, recordId: r.id, createdAt: r.createdAt, updatedAt: r.updatedAt, titleKey }),
          entity: 'objectRecord',
          ...r,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  };
}

export async function getRecord(workspaceId: string, type: string, recordId: string): Promise<RecordItem | undefined> {
  const item = await getItem<Record<string, unknown>>(recordKey(workspaceId, type, recordId));
  return item ? strip<RecordItem>(item) : undefined;
}

export const INDEX_OF_SORT = {
  created_desc: { index: 'gsi1', forward: false },
  created_asc: { index: 'gsi1', forward: true },
  updated_desc: { index: 'gsi2', forward: false },
  title_asc: { index: 'gsi3', forward: true },
} as const;

export type SortBy = keyof typeof INDEX_OF_SORT;

export interface RecordFilter {
  expression?: string;
  names: Record<string, string>;
  values: Record<string, unknown>;
}

/**
 * A window of one type's live records in a sort order, skipping `offset` matches, plus the number
 * of all matches when asked. Reads only that type's index partition, never the workspace.
 */
export async function recordWindow(
  workspaceId: string,
  type: string,
  sortBy: SortBy,
  filter: RecordFilter,
  offset: number,
  limit: number,
  countAll: boolean,
): Promise<{ items: RecordItem[]; total?: number }> {
  const { index, forward } = INDEX_OF_SORT[sortBy];
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
      else if (items.length < limit) items.push(strip<RecordItem>(raw));
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
