import * as z from 'zod';
import { freeFormMap, isoDateTime, rawItemKey, storableNumber } from '../platform/validation/common';

export const MAX_TRACK_BATCH = 500;
export const MAX_PROPERTIES = 20;
/** Longest stats range, in days (both ends included). */
export const MAX_STATS_DAYS = 92;
export const DEFAULT_STATS_DAYS = 30;
/** Accepted event times: up to a day ahead (clock skew) and two years back. */
export const MAX_FUTURE_MS = 24 * 3600 * 1000;
export const MAX_PAST_MS = 730 * 24 * 3600 * 1000;

export const EVENT_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;
export const EVENT_TYPE = /^[a-z][a-z0-9_.]{0,63}$/;

const propertyKey = z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, { message: 'identifier of at most 64 characters' });
const propertyValue = z.union([z.string().max(256), storableNumber, z.boolean(), z.null()]);

/** One event as the client sends it; validated item by item, so one bad event fails alone. */
export const trackEventSchema = z
  .strictObject({
    eventId: z.string().regex(EVENT_ID, { message: '1-128 letters, digits and . _ : - (your own id: the dedupe key)' }),
    memberId: z.string().min(1).max(64),
    type: z.string().regex(EVENT_TYPE, { message: 'an event type: a-z, 0-9, _ and ., starting with a letter, at most 64 characters' }),
    occurredAt: isoDateTime,
    properties: freeFormMap(propertyKey, propertyValue, { max: MAX_PROPERTIES, noun: 'properties' }).optional(),
  })
  .superRefine((e, ctx) => {
    const t = Date.parse(e.occurredAt);
    const now = Date.now();
    if (t > now + MAX_FUTURE_MS) ctx.addIssue({ code: 'custom', path: ['occurredAt'], message: 'more than a day in the future' });
    if (t < now - MAX_PAST_MS) ctx.addIssue({ code: 'custom', path: ['occurredAt'], message: 'more than two years ago' });
  });

export type TrackEventInput = z.infer<typeof trackEventSchema>;

export const trackEventsBody = z.strictObject({
  events: z
    .array(
      z
        .record(rawItemKey, z.unknown())
        .describe(
          'A TrackEvent: `{ eventId, memberId, type, occurredAt, properties? }`. eventId: your id of the event (1-128 of A-Z a-z 0-9 . _ : -), the dedupe key; ' +
            'memberId: a member of the workspace; type: `^[a-z][a-z0-9_.]{0,63}$` (e.g. `page.viewed`); occurredAt: RFC 3339 with offset, at most a day ahead and two years back; ' +
            `properties: at most ${MAX_PROPERTIES} keys with string (<= 256), number, boolean or null values. Each event is validated on its own and fails on its own.`,
        ),
    )
    .min(1)
    .max(MAX_TRACK_BATCH)
    .describe(`1-${MAX_TRACK_BATCH} events, each accepted or refused on its own`),
});

export const TRACK_OUTCOMES = ['accepted', 'duplicate', 'failed'] as const;

export const trackResultSchema = z
  .object({
    index: z.number().int(),
    eventId: z.string().nullable().describe('The eventId of the item, when it had a usable one'),
    outcome: z.enum(TRACK_OUTCOMES).describe('duplicate: an event with this eventId was accepted before (in this batch or an earlier one)'),
    error: z.object({ code: z.string(), message: z.string(), details: z.array(z.unknown()).optional() }).nullable(),
  })
  .meta({ id: 'TrackEventResult' });

export const trackSummarySchema = z.object({ accepted: z.number().int(), duplicate: z.number().int(), failed: z.number().int() });

export const statsQuery = z.strictObject({
  from: z.iso
    .date()
    .optional()
    .describe(`First day (UTC, YYYY-MM-DD); default: ${DEFAULT_STATS_DAYS - 1} days before \`to\``),
  to: z.iso.date().optional().describe('Last day, included (UTC, YYYY-MM-DD); default: today'),
  type: z.string().regex(EVENT_TYPE, { message: 'an event type' }).optional().describe('Only this event type'),
});

const typeCount = z.object({ type: z.string(), count: z.number().int() });

export const statsSchema = z
  .object({
    from: z.string(),
    to: z.string(),
    total: z.number().int(),
    totals: z.array(typeCount).describe('Per type over the range, most frequent first'),
    days: z
      .array(z.object({ date: z.string(), total: z.number().int(), types: z.array(typeCount) }))
      .describe('Every day of the range, in order (zero days included)'),
  })
  .meta({ id: 'TrackingStats' });

export type TrackResult = z.infer<typeof trackResultSchema>;
export type TrackingStats = z.infer<typeof statsSchema>;
