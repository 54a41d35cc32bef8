/**
 * Which table stream records reach the webhook fan-out: new outbox items only. The same pattern is
 * the Lambda event source filter in AWS and the local stream poller's filter.
 */
export const OUTBOX_STREAM_FILTER = {
  eventName: ['INSERT'],
  dynamodb: { NewImage: { entity: { S: ['outbox'] } } },
} as const;

/**
 * Which table stream records reach the wallet changes consumer: changed or removed member items
 * (their sort key is `MEMBER`). Whether points, tier or status moved is decided from the images.
 */
export const MEMBER_CHANGE_STREAM_FILTER = {
  eventName: ['MODIFY', 'REMOVE'],
  dynamodb: { Keys: { sk: { S: ['MEMBER'] } } },
} as const;
