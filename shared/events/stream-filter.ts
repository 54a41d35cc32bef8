/**
 * Which table stream records reach the webhook fan-out: new outbox items only. The same pattern is
 * the Lambda event source filter in AWS and the local stream poller's filter.
 */
export const OUTBOX_STREAM_FILTER = {
  eventName: ['INSERT'],
  dynamodb: { NewImage: { entity: { S: ['outbox'] } } },
} as const;
