import { z } from 'zod';
import { statsQuery, statsSchema, trackEventsBody, trackResultSchema, trackSummarySchema } from '../domain/tracking/schemas';
import { contract, dataOf } from './contract';

export const trackingContract = contract({
  'POST /api/v2/tracking/events': {
    body: trackEventsBody,
    responses: { 200: dataOf(z.object({ results: z.array(trackResultSchema), summary: trackSummarySchema })) },
    description:
      'Ingests up to 500 behavioural events of members, one result per item in order: `accepted`, `duplicate` (the eventId was accepted before, in this ' +
      'batch or an earlier one; the first one counts, whatever the later payload says) or `failed` (validation, or 404 for a member that is not in the workspace). ' +
      'Replaying a batch is safe: nothing is stored or counted twice.',
  },
  'GET /api/v2/tracking/stats': {
    query: statsQuery,
    responses: { 200: dataOf(statsSchema) },
    description: `Accepted events per type and UTC day (by occurredAt) from \`from\` to \`to\`, both included; at most 92 days (default: the last 30). Counters kept at ingest: one read.`,
  },
});
