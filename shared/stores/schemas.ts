import * as z from 'zod';
import { STORE_STATUSES, storeRecordSchema } from './entities';
import { isoDateTime } from '../platform/validation/common';
import { currencySchema } from '../platform/money';

const addressSchema = z.strictObject({
  line1: z.string().trim().min(1).max(200).describe('Street and number, e.g. Rosenthaler Str. 40'),
  line2: z.string().trim().max(200).nullable().optional(),
  city: z.string().trim().min(1).max(100).describe('e.g. Berlin'),
  postalCode: z.string().trim().max(20).nullable().optional(),
  region: z.string().trim().max(100).nullable().optional(),
  country: z
    .string()
    .regex(/^[A-Z]{2}$/, { message: 'ISO 3166-1 alpha-2, e.g. DE' })
    .describe('ISO 3166-1 alpha-2 code, upper case, e.g. DE'),
});

const timezoneSchema = z
  .string()
  .max(64)
  .refine(
    (tz) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    },
    { message: 'must be an IANA time zone such as Europe/Berlin' },
  );

const storeFields = {
  name: z.string().trim().min(1).max(120).describe('Display name, e.g. Northwind Coffee Berlin Mitte'),
  code: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,64}$/, { message: 'letters, digits, dot, dash or underscore (max 64)' })
    .nullable()
    .optional()
    .describe("The merchant's own store code"),
  address: addressSchema.nullable().optional(),
  timezone: timezoneSchema.nullable().optional(),
  currency: currencySchema.nullable().optional(),
  status: z.enum(STORE_STATUSES).optional(),
};

export const createStoreBody = z.strictObject(storeFields);
export const updateStoreBody = z
  .strictObject({ ...storeFields, name: storeFields.name.optional() })
  .refine((b) => Object.keys(b).length > 0, { message: 'give at least one field to change' });

// A store is answered as stored.
export const storeSchema = storeRecordSchema().extend({ createdAt: isoDateTime, updatedAt: isoDateTime }).meta({ id: 'Store' });

export type Store = z.infer<typeof storeSchema>;
export type CreateStoreInput = z.infer<typeof createStoreBody>;
export type UpdateStoreInput = z.infer<typeof updateStoreBody>;
