import * as z from 'zod';
import { ID_PATTERN } from '../platform/ids';

/**
 * What the webhook consumers receive, checked before use: a queue body or a stream image is input
 * from outside the function, and a wrong shape must fail that one record, not the batch. Objects are
 * not strict: a field a newer producer adds does not make a message unreadable during a deploy.
 */

const id = (prefix: string) => z.string().regex(ID_PATTERN(prefix), `expected a ${prefix}_ id`);

/** The `x-request-id` of the HTTP request that caused the work (the shape the HTTP layer accepts). */
export const requestIdSchema = z.string().regex(/^[A-Za-z0-9._:-]{1,128}$/);

/** What travels on the delivery queue (and, after the redrive, the DLQ): one event for one endpoint. */
export const deliveryMessageSchema = z.object({
  workspaceId: id('ws'),
  endpointId: id('whe'),
  deliveryId: id('dlv'),
  eventId: id('evt'),
  eventType: z.string().min(1),
  /** The raw JSON body, sent byte for byte the same on every attempt and replay. */
  payload: z.string().min(1),
  trigger: z.enum(['event', 'replay', 'test']),
  /** The request that caused the event (or asked for the replay or test); absent in older messages and for events no request caused. */
  requestId: requestIdSchema.optional(),
});

export type DeliveryMessage = z.infer<typeof deliveryMessageSchema>;

/** One event of an outbox item (`shared/platform/events/outbox.ts` writes them). */
export const outboxEventSchema = z.object({
  id: id('evt'),
  type: z.string().min(1),
  created_at: z.iso.datetime({ offset: true }),
  data: z.record(z.string(), z.unknown()),
});

/** The new image of an outbox item, as the table stream carries it to the fan-out (unmarshalled). */
export const outboxStreamItemSchema = z.object({
  entity: z.literal('outbox'),
  workspaceId: id('ws'),
  events: z.array(outboxEventSchema),
  requestId: requestIdSchema.optional(),
});

export type OutboxStreamItem = z.infer<typeof outboxStreamItemSchema>;

/** A message body: JSON text holding what `schema` accepts (invalid JSON is one more issue). */
export const jsonBody = <T extends z.ZodType>(schema: T) =>
  z
    .string()
    .transform((text, ctx): unknown => {
      try {
        return JSON.parse(text);
      } catch {
        ctx.addIssue({ code: 'custom', message: 'not valid JSON' });
        return z.NEVER;
      }
    })
    .pipe(schema);

export const deliveryMessageBody = jsonBody(deliveryMessageSchema);

/** Issues as `path: message`, for logs: never the values, which may be anything. */
