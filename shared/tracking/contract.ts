import * as z from 'zod';
import { statsQuery, statsSchema, trackEventsBody, trackResultSchema, trackSummarySchema } from './schemas';
import { dataOf } from '../platform/contract/contract';
import { declareArea } from '../platform/contract/endpoint';

export const trackingArea = declareArea({
  area: 'tracking',
  description: 'Behavioural events (page views, clicks, custom events) ingested in batches, and their daily counts.',
  access: { table: 'readWrite' },
  endpoints: {
    trackEvents: {
      method: 'POST',
      path: '/api/v2/tracking/events',
      auth: ['apiKey'],
      scope: 'tracking:write',
      summary: 'Ingest up to 500 behavioural events',
      idempotent: true,
      body: trackEventsBody,
      responses: { 200: dataOf(z.object({ results: z.array(trackResultSchema), summary: trackSummarySchema })) },
      description:
        'Ingests up to 500 behavioural events of members, one result per item in order: `accepted`, `duplicate` (the eventId was accepted before, in this ' +
        'batch or an earlier one; the first one counts, whatever the later payload says) or `failed` (validation, or 404 for a member that is not in the workspace). ' +
        'Replaying a batch is safe: nothing is stored or counted twice.',
    },
    getTrackingStats: {
      method: 'GET',
      path: '/api/v2/tracking/stats',
      auth: ['apiKey'],
      scope: 'tracking:read',
      summary: 'Counts per event type and day',
      query: statsQuery,
      responses: { 200: dataOf(statsSchema) },
      description: `Accepted events per type and UTC day (by occurredAt) from \`from\` to \`to\`, both included; at most 92 days (default: the last 30). Counters kept at ingest: one read.`,
    },
  },
});
