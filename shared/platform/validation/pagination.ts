import * as z from 'zod';
import { queryInteger } from './common';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

/** Cursor pagination: `?limit=` (1-200, default 50) and the opaque `?cursor=` of the previous page. */
export const pageQueryShape = {
  limit: queryInteger(z.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE)).describe('Page size, 1-200 (default 50)'),
  cursor: z.string().min(1).max(2048).optional().describe('The `nextCursor` of the previous page'),
};

export const pageQuery = z.strictObject(pageQueryShape);

/**
 * A list filter's text value: absent means "no filter", and an empty value (`?email=`) is a 422,
 * never an empty key part. Bounded like every request string.
 */
export const filterValue = (max = 64) => z.string().min(1, { message: 'must not be empty' }).max(max);
