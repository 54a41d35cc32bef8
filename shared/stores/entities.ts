/**
 * Stores as the table stores them. A plain declaration below the domain, so the data layer can
 * name it without importing it. A store is answered as stored: the domain's answer schema is
 * checked against `StoreRecord` at compile time (`SameShape`), so this stays the one description
 * of what is stored.
 */

export const STORE_STATUSES = ['active', 'closed'] as const;
export type StoreStatus = (typeof STORE_STATUSES)[number];

export interface StoreRecord {
  id: string;
  name: string;
  code: string | null;
  address: {
    line1: string;
    line2: string | null;
    city: string;
    postalCode: string | null;
    region: string | null;
    country: string;
  } | null;
  timezone: string | null;
  currency: string | null;
  status: StoreStatus;
  createdAt: string;
  updatedAt: string;
}
