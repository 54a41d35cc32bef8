/**
 * Stores as the table stores them, declared once below the domain, so the data layer can name them
 * without importing it. A store is answered as stored: the API's schema derives from this one.
 */
import * as z from 'zod';
import { defineEntity } from '../platform/data/entity';

export const STORE_STATUSES = ['active', 'closed'] as const;
export type StoreStatus = (typeof STORE_STATUSES)[number];

/** A store's record: the item also keeps its workspace and version beside it. */
export const storeRecordSchema = () =>
  z.object({
    id: z.string(),
    name: z.string(),
    code: z.string().nullable(),
    address: z
      .object({
        line1: z.string(),
        line2: z.string().nullable(),
        city: z.string(),
        postalCode: z.string().nullable(),
        region: z.string().nullable(),
        country: z.string(),
      })
      .nullable(),
    timezone: z.string().nullable(),
    currency: z.string().nullable(),
    status: z.enum(STORE_STATUSES),
    createdAt: z.string(),
    updatedAt: z.string(),
  });
export type StoreRecord = z.infer<ReturnType<typeof storeRecordSchema>>;

export const storeEntity = /* @__PURE__ */ defineEntity({
  name: 'store',
  keys: (s: StoreRecord, c: { workspaceId: string; version: number }) => ({ workspaceId: c.workspaceId, storeId: s.id }),
  beside: { workspaceId: (_, c) => c.workspaceId, version: (_, c) => c.version },
});
