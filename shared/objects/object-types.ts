import { config } from '../platform/config';
import * as repo from './repository';
import { withOptimisticRetry } from '../platform/data/concurrency';
import { audited, type AuditContext } from '../audit';
import { TtlCache } from '../platform/cache';
import { AppError, notFound } from '../platform/errors';
import { breakingChanges, defaultTitleField, KEY_PATTERN, type putObjectTypeBody } from './definitions';
import type { ObjectTypeRecord } from './entities';
import { refuseOversized } from '../platform/data/stored-size';
import type * as z from 'zod';

export type PutObjectTypeInput = z.infer<typeof putObjectTypeBody>;

/**
 * Creates or replaces a type. A change that could make existing records invalid (a field removed,
 * retyped or made required, enum options removed, another title field) is refused with 409 while the
 * type has live records; everything else applies at once. See docs/decisions/.
 */
export async function putObjectType(
  workspaceId: string,
  type: string,
  input: PutObjectTypeInput,
  audit: AuditContext,
  now = new Date(),
): Promise<ObjectTypeRecord> {
  return withOptimisticRetry(async () => {
    const previous = await repo.getObjectType(workspaceId, type);
    const titleField = input.titleField ?? defaultTitleField(input.fields) ?? null;
    const reasons = previous ? breakingChanges(previous.fields, input.fields, previous.titleField ?? undefined, titleField ?? undefined) : [];
    const breaking = reasons.length > 0;
    if (breaking && (previous?.recordCount ?? 0) > 0) {
      throw new AppError(
        'CONFLICT',
        `This change could make the ${previous!.recordCount} existing record(s) invalid: ${reasons.join('; ')}. Make it compatible, or delete the records first.`,
      );
    }
    const at = now.toISOString();
    const next: ObjectTypeRecord = {
      workspaceId,
      type,
      label: input.label,
      description: input.description ?? null,
      fields: input.fields,
      titleField,
      status: input.status,
      apiVisible: input.apiVisible,
      recordCount: previous?.recordCount ?? 0,
      // Records written before value entries existed have none: such a type keeps querying its
      // sort index for filtered lists until it has no live record.
      valueIndex: !previous || previous.valueIndex === true || (previous.recordCount ?? 0) === 0,
      version: (previous?.version ?? 0) + 1,
      createdAt: previous?.createdAt ?? at,
      updatedAt: at,
    };
    refuseOversized(next, 'objectType', { fields: input.fields, at: 'fields.' });
    const action = previous ? 'object_type.updated' : 'object_type.created';
    await repo.putObjectType(next, previous, breaking, [audited(workspaceId, audit, action, { type: 'objectType', id: type }, now)]);
    writableTypes.invalidate(`${workspaceId}/${type}`);
    return next;
  });
}

export const listAllObjectTypes = (workspaceId: string) => repo.listObjectTypes(workspaceId);

/** Any type the workspace defined, drafts and hidden ones included (the console's view); anything else is 404. */
export async function definedObjectType(workspaceId: string, type: string): Promise<ObjectTypeRecord> {
  const found = KEY_PATTERN.test(type) ? await repo.getObjectType(workspaceId, type) : undefined;
  if (!found) throw notFound('Object type');
  return found;
}

const exposed = (t: ObjectTypeRecord | undefined): t is ObjectTypeRecord => t !== undefined && t.status === 'published' && t.apiVisible;

/** Spec 4.1: only published, API-visible types exist for the API; anything else is 404. */
export async function apiObjectType(workspaceId: string, type: string): Promise<ObjectTypeRecord> {
  const found = KEY_PATTERN.test(type) ? await repo.getObjectType(workspaceId, type) : undefined;
  if (!exposed(found)) throw notFound('Object type');
  return found;
}

/**
 * API-visible types as record creation last read them in this process (`config.caches.objectTypesMs`).
 * Only for writes that are conditional on the type's version: a type changed since is refused by the
 * write's condition, and the retry reads it afresh (`cached: false`). `fromCache` tells the caller
 * whether to read it afresh before refusing anything because of it.
 */
const writableTypes = new TtlCache<ObjectTypeRecord>(config.caches.objectTypesMs, config.caches.maxEntries);

export async function writableObjectType(workspaceId: string, type: string, cached: boolean): Promise<{ type: ObjectTypeRecord; fromCache: boolean }> {
  const key = `${workspaceId}/${type}`;
  const hit = cached ? writableTypes.get(key) : undefined;
  if (hit) return { type: hit, fromCache: true };
  const found = await apiObjectType(workspaceId, type);
  writableTypes.set(key, found);
  return { type: found, fromCache: false };
}

/**
 * The type as this process last read it (possibly stale), or undefined: only a hint of what a read
 * will need, e.g. to start a list's reads while the type itself is read afresh. Nothing may rest on it.
 */
export const objectTypeHint = (workspaceId: string, type: string): ObjectTypeRecord | undefined => writableTypes.get(`${workspaceId}/${type}`);

/** Keeps a type just read afresh (it is at least as new as what the cache holds). */
export const rememberObjectType = (t: ObjectTypeRecord): void => writableTypes.set(`${t.workspaceId}/${t.type}`, t);

export async function apiObjectTypes(workspaceId: string): Promise<ObjectTypeRecord[]> {
  return (await repo.listObjectTypes(workspaceId)).filter(exposed);
}

export const typeSummary = (t: ObjectTypeRecord) => ({ type: t.type, label: t.label, description: t.description, titleField: t.titleField });

export const typeDetail = (t: ObjectTypeRecord) => ({
  ...typeSummary(t),
  fields: t.fields.map((f) => ({
    key: f.key,
    type: f.type,
    required: f.required ?? false,
    ...(f.options ? { options: f.options } : {}),
    ...(f.label ? { label: f.label } : {}),
    ...(f.personal ? { personal: true } : {}),
  })),
});

export const adminView = (t: ObjectTypeRecord) => ({
  ...typeDetail(t),
  status: t.status,
  apiVisible: t.apiVisible,
  recordCount: t.recordCount ?? 0,
  version: t.version,
  createdAt: t.createdAt,
  updatedAt: t.updatedAt,
});
