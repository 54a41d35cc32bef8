import * as members from '../members';
import * as repo from './repository';
import { withOptimisticRetry } from '../platform/data/concurrency';
import type { Page } from '../platform/data/queries';
import { MAX_TRANSACTION_ITEMS, type TransactStep } from '../platform/data/transactions';
import { transactWrite } from './repository';
import { event, publish } from '../platform/events/outbox';
import { ID_PATTERN, newId } from '../platform/ids';
import type { Principal } from '../platform/contract/principal';
import { notFound, validationFailed, type ErrorDetail } from '../platform/errors';
import type { FieldDef } from './definitions';
import { apiObjectType, definedObjectType, objectTypeHint, rememberObjectType, writableObjectType } from './object-types';
import { guardWrite } from './rate-guard';
import type { ObjectTypeRecord, RecordItem } from './entities';
import { encodeFilterValue, titleKeyOf, validateRecordData } from './validator';
import { sealSteps, type WriteOptions } from '../platform/data/write-options';
import { refuseOversized } from '../platform/data/stored-size';

/** Fields whose lower-cased copy feeds the free-text search `q`. */
const SEARCHABLE = new Set(['text', 'email', 'url', 'enum']);

/**
 * Low-cardinality fields get a live-record counter per value, kept in each write's transaction, so
 * the `total` of a list filtered by one of them is one read instead of a count over the type.
 */
const COUNTED = new Set(['enum', 'boolean', 'member_ref']);
const MAX_COUNTED_FIELDS = 40;
const countedFields = (type: ObjectTypeRecord) => type.fields.filter((f) => COUNTED.has(f.type)).slice(0, MAX_COUNTED_FIELDS);

const present = (v: unknown) => v !== undefined && v !== null;

/**
 * Indexed fields: the counted ones. Each value lists its records through value entries rewritten
 * in every write's transaction, so a list filtered by one value reads only its window. Only for
 * types with at most 16 counted fields: a replace rewriting every entry and moving two counters
 * per field must fit one transaction (100 items) with the record and its outbox item; a type with
 * more has none (its filtered lists query the sort index).
 */
const MAX_INDEXED_FIELDS = 16;
function indexedFields(type: ObjectTypeRecord): FieldDef[] {
  const counted = type.fields.filter((f) => COUNTED.has(f.type));
  return counted.length <= MAX_INDEXED_FIELDS ? counted : [];
}

/**
 * Entries copy the record's data up to this size (JSON, UTF-8): 16 copies and the record stay
 * within a transaction's 4 MB. A larger record's entries hold its keys only and the list fetches it.
 */
const MAX_ENTRY_COPY_BYTES = 64 * 1024;

const titleKeyFor = (type: ObjectTypeRecord, data: Record<string, unknown>) => titleKeyOf(type.fields, type.titleField ?? undefined, data);

/** The stored data after a merge (a null removes the field). */
const withoutNulls = (data: Record<string, unknown>) => Object.fromEntries(Object.entries(data).filter(([, v]) => present(v)));

/**
 * The value entries of a record going from `before` to `after` (either absent: created, deleted):
 * every entry of the new state is written whole (value, orders and data copy all follow the
 * record), an entry whose field lost its value is removed.
 */
function entrySteps(
  type: ObjectTypeRecord,
  record: { workspaceId: string; type: string; id: string; createdAt: string },
  before: Record<string, unknown> | undefined,
  after: { data: Record<string, unknown>; updatedAt: string } | undefined,
): TransactStep[] {
  const fields = indexedFields(type);
  if (fields.length === 0) return [];
  const data = after ? withoutNulls(after.data) : undefined;
  const copy = data && Buffer.byteLength(JSON.stringify(data)) <= MAX_ENTRY_COPY_BYTES ? data : undefined;
  const { workspaceId, type: typeKey, id, createdAt } = record;
  const owner = after ? { workspaceId, type: typeKey, id, createdAt, updatedAt: after.updatedAt, ...(copy ? { data: copy } : {}) } : undefined;
  const titleKey = data ? titleKeyFor(type, data) : undefined;
  return fields.flatMap((f) => {
    if (data && present(data[f.key])) return [repo.putValueEntryStep(owner!, titleKey!, { field: f.key, value: data[f.key] })];
    return present(before?.[f.key]) ? [repo.deleteValueEntryStep(record.workspaceId, record.type, record.id, f.key)] : [];
  });
}

/** Counter moves from one record state to another (either may be absent). */
function counterMoves(type: ObjectTypeRecord, before: Record<string, unknown> | undefined, after: Record<string, unknown> | undefined): repo.CounterMove[] {
  const moves: repo.CounterMove[] = [];
  for (const f of countedFields(type)) {
    const [a, b] = [before?.[f.key], after?.[f.key]];
    if (present(a) && present(b) && a === b) continue;
    if (present(a)) moves.push({ field: f.key, value: a, delta: -1 });
    if (present(b)) moves.push({ field: f.key, value: b, delta: 1 });
  }
  return moves;
}

/**
 * The values the counted fields held when we read, which the write expects to still hold, so the
 * counter moves we computed are exact; a concurrent change of one of them makes the write re-read
 * and retry.
 */
function countedExpectations(type: ObjectTypeRecord, data: Record<string, unknown>, keys?: string[]): repo.ExpectedValue[] {
  return countedFields(type)
    .filter((f) => !keys || keys.includes(f.key))
    .map((f) => ({ field: f.key, value: present(data[f.key]) ? data[f.key] : undefined }));
}

export interface PublicRecord {
  id: string;
  data: Record<string, unknown>;
}

export interface FullRecord extends PublicRecord {
  createdAt: string;
  updatedAt: string;
}

const pick = (data: Record<string, unknown>, keys: string[]) => Object.fromEntries(keys.filter((k) => k in data).map((k) => [k, data[k]]));

const full = (r: RecordItem): FullRecord => ({ id: r.id, data: r.data, createdAt: r.createdAt, updatedAt: r.updatedAt });
const isRecordId = (id: string) => ID_PATTERN('rec').test(id);

function refuse(issues: { field: string; message: string }[]): never {
  throw validationFailed(issues.map((i): ErrorDetail => ({ in: 'body', field: i.field ? `data.${i.field}` : 'data', message: i.message })));
}

const NO_SUCH_MEMBER = 'no such member in this workspace';

/** The fields of `value` that hold a member reference, by member id. */
function memberRefsOf(type: ObjectTypeRecord, value: Record<string, unknown>): Map<string, string[]> {
  const refs = new Map<string, string[]>();
  for (const f of type.fields) {
    const id = value[f.key];
    if (f.type === 'member_ref' && typeof id === 'string') refs.set(id, [...(refs.get(id) ?? []), f.key]);
  }
  return refs;
}

/**
 * The write's transaction with its `member_ref` values checked: they must name members of this
 * workspace. Each member is one condition of the same transaction (no read before; a missing one
 * refuses the write with one 422 detail per field). Should the conditions not fit in one
 * transaction (a type with very many member fields), the members are read first instead.
 */
async function withMemberRefs(workspaceId: string, type: ObjectTypeRecord, value: Record<string, unknown>, steps: TransactStep[]): Promise<TransactStep[]> {
  const refs = [...memberRefsOf(type, value)];
  if (steps.length + refs.length <= MAX_TRANSACTION_ITEMS) {
    const checks = refs.map(([id, keys]) => members.memberExistsStep(workspaceId, id, () => refuseRefs(keys)));
    return [steps[0]!, ...checks, ...steps.slice(1)];
  }
  const missing = await Promise.all(refs.map(async ([id, keys]) => ((await members.getMemberRecord(workspaceId, id)) ? [] : keys)));
  if (missing.flat().length) throw refuseRefs(missing.flat());
  return steps;
}

const refuseRefs = (keys: string[]) => validationFailed(keys.map((k): ErrorDetail => ({ in: 'body', field: `data.${k}`, message: NO_SUCH_MEMBER })));

const searchCopy = (fields: FieldDef[], data: Record<string, unknown>): Record<string, string> =>
  Object.fromEntries(fields.filter((f) => SEARCHABLE.has(f.type) && typeof data[f.key] === 'string').map((f) => [f.key, String(data[f.key]).toLowerCase()]));

const memberRefOf = (type: ObjectTypeRecord, data: Record<string, unknown>): string | undefined => {
  const f = type.fields.find((x) => x.type === 'member_ref' && typeof data[x.key] === 'string');
  return f ? (data[f.key] as string) : undefined;
};

type RecordEventType = 'object.record_created' | 'object.record_updated' | 'object.record_deleted';

const recordEvent = (kind: RecordEventType, type: ObjectTypeRecord, recordId: string, data: Record<string, unknown>) => {
  const member = memberRefOf(type, data);
  return event(kind, { resource_id: recordId, object_type: type.type, ...(member ? { member_ref: member } : {}) });
};

export async function createRecord(
  principal: Principal,
  typeKey: string,
  body: { data: unknown },
  opts: WriteOptions<PublicRecord> = {},
  now = new Date(),
): Promise<PublicRecord> {
  await guardWrite(principal);
  const ws = principal.workspaceId;
  let attempt = 0;
  const validated = async (cached: boolean) => {
    const { type, fromCache } = await writableObjectType(ws, typeKey, cached);
    return { type, fromCache, ...validateRecordData(type.fields, body.data, 'full') };
  };
  return withOptimisticRetry(async () => {
    // The first attempt may validate against the cached type: the write is conditional on its
    // version. A refusal never rests on the cache: the stored type decides it.
    let checked = await validated(++attempt === 1);
    if (checked.issues.length && checked.fromCache) checked = await validated(false);
    const { type, issues, value } = checked;
    if (issues.length) refuse(issues);
    const at = now.toISOString();
    const record: RecordItem = {
      id: newId('rec'),
      workspaceId: ws,
      type: type.type,
      data: value,
      search: searchCopy(type.fields, value),
      createdAt: at,
      updatedAt: at,
    };
    refuseOversized(record, 'objectRecord', { fields: value, at: 'data.' });
    const result = { id: record.id, data: record.data };
    await transactWrite(
      await withMemberRefs(ws, type, value, [
        // Conditional on the type version we validated against: a concurrent type change re-validates.
        repo.countStep(ws, type.type, 1, type.version),
        repo.putRecordStep(record, titleKeyFor(type, value)),
        ...repo.counterSteps(ws, type.type, counterMoves(type, undefined, value)),
        ...entrySteps(type, record, undefined, { data: value, updatedAt: at }),
        ...publish(ws, [recordEvent('object.record_created', type, record.id, value)]),
        ...sealSteps(opts, result),
      ]),
    );
    return result;
  });
}

async function liveRecord(workspaceId: string, type: ObjectTypeRecord, recordId: string): Promise<RecordItem> {
  const record = isRecordId(recordId) ? await repo.getRecord(workspaceId, type.type, recordId) : undefined;
  if (!record || record.deletedAt) throw notFound('Record');
  return record;
}

export async function getRecord(principal: Principal, typeKey: string, recordId: string): Promise<FullRecord> {
  const type = await apiObjectType(principal.workspaceId, typeKey);
  return full(await liveRecord(principal.workspaceId, type, recordId));
}

/** A merge of `value` into a record: a null removes the field, and its search copy with it. */
function mergeChange(type: ObjectTypeRecord, value: Record<string, unknown>): repo.RecordChange {
  const searchable = (key: string) => type.fields.some((f) => f.key === key && SEARCHABLE.has(f.type));
  return {
    kind: 'merge',
    fields: Object.entries(value).map(([key, v]) => ({
      key,
      value: v,
      search: !searchable(key) ? undefined : v === null ? null : typeof v === 'string' ? v.toLowerCase() : undefined,
    })),
  };
}

/** The title key after a merge that sets or removes the title field (null: no title); undefined when it leaves it alone. */
const mergedTitleKey = (type: ObjectTypeRecord, value: Record<string, unknown>) =>
  type.titleField !== null && type.titleField in value
    ? titleKeyOf(type.fields, type.titleField, { [type.titleField]: value[type.titleField] ?? undefined })
    : undefined;

/**
 * PATCH merges field by field: each field set or removed in a single update, never a rewrite of
 * the whole record, so two concurrent PATCHes of different fields both survive. `replace: true`
 * writes the whole record after validating it as a full record.
 */
export async function updateRecord(
  principal: Principal,
  typeKey: string,
  recordId: string,
  body: { data: unknown; replace?: boolean },
  now = new Date(),
): Promise<FullRecord> {
  await guardWrite(principal);
  const ws = principal.workspaceId;
  return withOptimisticRetry(async () => {
    const type = await apiObjectType(ws, typeKey);
    const current = await liveRecord(ws, type, recordId);
    const replace = body.replace === true;
    const { issues, value } = validateRecordData(type.fields, body.data, replace ? 'full' : 'patch');
    if (issues.length) refuse(issues);
    const change: repo.RecordChange = replace ? { kind: 'replace', data: value, search: searchCopy(type.fields, value) } : mergeChange(type, value);
    const titleKey = replace ? titleKeyOf(type.fields, type.titleField ?? undefined, value) : mergedTitleKey(type, value);
    const after = replace ? value : { ...current.data, ...value };
    refuseOversized({ ...current, data: withoutNulls(after), search: searchCopy(type.fields, withoutNulls(after)) }, 'objectRecord', {
      fields: value,
      at: 'data.',
    });
    const touched = replace ? undefined : Object.keys(value);
    const moves = counterMoves(type, replace ? current.data : pick(current.data, touched!), replace ? value : pick(after, touched!));
    // Even an unchanged value is guarded: setting it over a concurrent change would skew the counters.
    const expected = countedExpectations(type, current.data, touched);
    // The write applies only at the revision it read: the value entries it writes (values, orders,
    // data copy) were computed from that read, so a concurrent write makes it re-read and retry.
    const updatedAt = now.toISOString();
    await transactWrite(
      await withMemberRefs(ws, type, value, [
        // Deleted meanwhile, a counted field or the revision changed: the retry re-reads (and answers 404 if gone).
        repo.updateRecordStep(ws, type.type, recordId, { updatedAt, change, titleKey, expected, revision: { read: current.rev } }),
        ...repo.counterSteps(ws, type.type, moves),
        ...entrySteps(type, current, current.data, { data: after, updatedAt }),
        ...publish(ws, [recordEvent('object.record_updated', type, recordId, after)]),
      ]),
    );
    return full(await liveRecord(ws, type, recordId));
  });
}

/** Soft delete: the data stays (with deletedAt); the index keys go, so lists and totals drop it. */
export async function deleteRecord(principal: Principal, typeKey: string, recordId: string, now = new Date()): Promise<void> {
  await guardWrite(principal);
  const ws = principal.workspaceId;
  await withOptimisticRetry(async () => {
    const type = await apiObjectType(ws, typeKey);
    const current = await liveRecord(ws, type, recordId);
    await transactWrite([
      repo.softDeleteRecordStep(ws, type.type, recordId, now.toISOString(), countedExpectations(type, current.data), { read: current.rev }),
      repo.countStep(ws, type.type, -1),
      ...repo.counterSteps(ws, type.type, counterMoves(type, current.data, undefined)),
      ...entrySteps(type, current, current.data, undefined),
      ...publish(ws, [recordEvent('object.record_deleted', type, recordId, current.data)]),
    ]);
  });
}

export const DEFAULT_LIMIT = 50;

export interface RecordQuery {
  limit: number;
  offset: number;
  sortBy: repo.SortBy;
  q?: string;
  memberId?: string;
  /** `f_<key>` query parameters, key without the prefix, value URL-decoded. */
  filters: Record<string, string>;
}

/** The filter of a list: every `f_` equality, the member, the free text (case-insensitive); ANDed. */
function buildMatch(type: ObjectTypeRecord, query: RecordQuery): repo.RecordMatch {
  const equals: repo.RecordMatch['equals'] = [];
  const issues: ErrorDetail[] = [];
  for (const [key, raw] of Object.entries(query.filters)) {
    const field = type.fields.find((f) => f.key === key);
    if (!field) {
      issues.push({ in: 'query', field: `f_${key}`, message: 'not a field of this object type' });
      continue;
    }
    const encoded = encodeFilterValue(field, raw);
    if (!encoded.ok) {
      issues.push({ in: 'query', field: `f_${key}`, message: encoded.message });
      continue;
    }
    equals.push({ field: key, value: encoded.value });
  }
  const memberFields = type.fields.filter((f) => f.type === 'member_ref').map((f) => f.key);
  // Records of a type without a member field can name no member: asking is a mistake, not an empty list.
  if (query.memberId !== undefined && memberFields.length === 0) {
    issues.push({ in: 'query', field: 'memberId', message: 'this object type has no member field (member_ref)' });
  }
  if (issues.length) throw validationFailed(issues);
  // A type without searchable fields matches nothing for `q`.
  const searchFields = type.fields.filter((f) => SEARCHABLE.has(f.type)).map((f) => f.key);
  return {
    equals,
    ...(query.memberId !== undefined ? { member: { fields: memberFields, memberId: query.memberId } } : {}),
    ...(query.q !== undefined ? { text: { fields: searchFields, contains: query.q.toLowerCase() } } : {}),
  };
}

const isFiltered = (m: repo.RecordMatch) => m.equals.length > 0 || m.member !== undefined || m.text !== undefined;

/** The one counted (field, value) a list is filtered by, when that is its only condition. */
function countedTotal(type: ObjectTypeRecord, query: RecordQuery): { field: string; value: unknown } | undefined {
  const counted = countedFields(type);
  const filters = Object.entries(query.filters);
  if (query.q !== undefined) return undefined;
  if (query.memberId !== undefined) {
    const refs = type.fields.filter((f) => f.type === 'member_ref');
    return filters.length === 0 && refs.length === 1 && counted.includes(refs[0]!) ? { field: refs[0]!.key, value: query.memberId } : undefined;
  }
  if (filters.length !== 1) return undefined;
  const [key, raw] = filters[0]!;
  const field = counted.find((f) => f.key === key);
  const encoded = field ? encodeFilterValue(field, raw) : undefined;
  return field && encoded?.ok ? { field: key, value: encoded.value } : undefined;
}

/** The one indexed value a list is filtered by, when the type's value entries can serve it. */
function indexedValue(type: ObjectTypeRecord, query: RecordQuery): { field: string; value: unknown } | undefined {
  const counted = countedTotal(type, query);
  return counted && type.valueIndex && indexedFields(type).some((f) => f.key === counted.field) ? counted : undefined;
}

type IndexedRead = { key: string; window: Promise<PublicRecord[]>; total: Promise<number> };

/** The entries' window and the counter of one value, read side by side (rejections kept for whoever awaits them). */
function readIndexed(ws: string, type: string, wanted: { field: string; value: unknown }, query: RecordQuery): IndexedRead {
  const window = repo.valueWindow(ws, type, query.sortBy, wanted, query.offset, query.limit);
  const total = repo.counterValue(ws, type, wanted.field, wanted.value);
  for (const p of [window, total]) p.catch(() => undefined);
  return { key: JSON.stringify([wanted.field, wanted.value]), window, total };
}

/**
 * `{ data: [{ id, data }], total }`; `total` counts every match, not the page. Filtered by exactly
 * one indexed value, the window comes from that value's entries and the total from its counter,
 * read side by side; any other filter queries the sort index. When this process has read the type
 * before, those two reads start at once, beside the type's own read (which decides everything:
 * visibility, the filter's validity, whether the entries serve it; reads started on a stale
 * definition are dropped).
 */
export async function listRecords(principal: Principal, typeKey: string, query: RecordQuery): Promise<{ data: PublicRecord[]; total: number }> {
  const ws = principal.workspaceId;
  const hint = objectTypeHint(ws, typeKey);
  const hinted = hint ? indexedValue(hint, query) : undefined;
  const early = hinted ? readIndexed(ws, typeKey, hinted, query) : undefined;
  const type = await apiObjectType(ws, typeKey);
  rememberObjectType(type);
  const match = buildMatch(type, query);
  const filtered = isFiltered(match);
  const indexed = filtered ? indexedValue(type, query) : undefined;
  if (indexed) {
    const reads = early?.key === JSON.stringify([indexed.field, indexed.value]) ? early : readIndexed(ws, type.type, indexed, query);
    const [data, total] = await Promise.all([reads.window, reads.total]);
    return { data, total };
  }
  const counted = filtered ? countedTotal(type, query) : undefined;
  const counter = counted ? repo.counterValue(ws, type.type, counted.field, counted.value) : undefined;
  const [window, total] = await Promise.all([repo.recordWindow(ws, type.type, query.sortBy, match, query.offset, query.limit, filtered && !counted), counter]);
  // Unfiltered, the type's live-record count is the total; one counted filter, its counter.
  return { data: window.items.map((r) => ({ id: r.id, data: r.data })), total: !filtered ? (type.recordCount ?? 0) : (total ?? window.total!) };
}

/** The console's browsing of one type's live records, newest first by cursor: drafts and hidden types too. */
export async function browseRecords(workspaceId: string, typeKey: string, query: { limit: number; cursor?: string | undefined }): Promise<Page<FullRecord>> {
  const type = await definedObjectType(workspaceId, typeKey);
  const page = await repo.recordPage(workspaceId, type.type, query.limit, query.cursor);
  return { ...page, items: page.items.map(full) };
}

/**
 * Erasure of a member's personal data from one record that references it: the given fields are
 * removed (even required ones: no validation) with everything that copies them, in one
 * transaction like any PATCH: the search copies (so free-text search no longer finds them), the
 * value entries' data copies, the title key and the counters. Idempotent: a record without those
 * fields (or deleted meanwhile) is left alone.
 */
export async function clearRecordFields(workspaceId: string, type: ObjectTypeRecord, recordId: string, keys: string[], now = new Date()): Promise<void> {
  await withOptimisticRetry(async () => {
    const current = await repo.getRecord(workspaceId, type.type, recordId);
    const held = current && !current.deletedAt ? keys.filter((k) => present(current.data[k])) : [];
    if (!current || held.length === 0) return;
    const value = Object.fromEntries(held.map((k) => [k, null]));
    const after = withoutNulls({ ...current.data, ...value });
    const updatedAt = now.toISOString();
    await transactWrite([
      repo.updateRecordStep(workspaceId, type.type, recordId, {
        updatedAt,
        change: mergeChange(type, value),
        titleKey: mergedTitleKey(type, value),
        expected: countedExpectations(type, current.data, held),
        revision: { read: current.rev },
      }),
      ...repo.counterSteps(workspaceId, type.type, counterMoves(type, pick(current.data, held), {})),
      ...entrySteps(type, current, current.data, { data: after, updatedAt }),
      ...publish(workspaceId, [recordEvent('object.record_updated', type, recordId, after)]),
    ]);
  });
}

/** The live records of every type whose member reference fields name the member, oldest first per type. */
export async function recordsReferencing(workspaceId: string, memberId: string): Promise<{ type: ObjectTypeRecord; record: RecordItem }[]> {
  const out: { type: ObjectTypeRecord; record: RecordItem }[] = [];
  for (const type of await repo.listObjectTypes(workspaceId)) {
    const fields = type.fields.filter((f) => f.type === 'member_ref').map((f) => f.key);
    if (fields.length === 0) continue;
    for (let offset = 0; ; ) {
      const { items } = await repo.recordWindow(workspaceId, type.type, 'created_asc', { equals: [], member: { fields, memberId } }, offset, 200, false);
      out.push(...items.map((record) => ({ type, record })));
      if (items.length < 200) break;
      offset += items.length;
    }
  }
  return out;
}
