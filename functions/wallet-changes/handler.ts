import type { Context, DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { queueFromConfig } from '../../shared/platform/adapters/queue';
import { config } from '../../shared/platform/config';
import { fromStreamImage } from '../../shared/platform/data/stream-image';
import { type MemberImage, changedMember, coalesce, type MemberRef } from '../../shared/wallet';

/** Only the attributes a card shows (and the request behind the change) are read from an image (the rest of a member may hold anything). */
const CARD_ATTRIBUTES = ['entity', 'workspaceId', 'id', 'balance', 'tier', 'status', 'lastRequestId'] as const;
const cardImage = (image: Record<string, unknown> | undefined): MemberImage | undefined =>
  image ? fromStreamImage<MemberImage>(Object.fromEntries(CARD_ATTRIBUTES.filter((a) => a in image).map((a) => [a, image[a]]))) : undefined;
import { logger } from '../../shared/platform/observability/logger';
import { traced } from '../../shared/platform/observability/tracing';

/** SQS takes at most 10 messages per SendMessageBatch. */
const SEND_BATCH = 10;

/**
 * Table stream consumer (member items changed or removed): one wallet push message per member
 * whose points, tier or status moved, per batch (a burst in one batch is one message), delayed so a
 * burst spread over a few batches still meets one content comparison. Sends are idempotent in
 * effect (the worker compares content), so a failed send reports the batch's records from the first
 * one on, and the retry starts there.
 */
const handle = async (event: DynamoDBStreamEvent, _context?: Context): Promise<DynamoDBBatchResponse> => {
  const refs: MemberRef[] = [];
  for (const record of event.Records) {
    try {
      const d = record.dynamodb;
      const ref = changedMember(record.eventName, cardImage(d?.OldImage), cardImage(d?.NewImage));
      if (ref) refs.push(ref);
    } catch (err) {
      // A record that cannot be read never changes; retrying it would only block its shard.
      logger.error('wallet.member_image_malformed', { sequenceNumber: record.dynamodb?.SequenceNumber, error: err as Error });
    }
  }
  const messages = coalesce(refs).map((r) => ({ body: JSON.stringify(r), delaySeconds: config.wallet.push.coalesceSeconds }));
  try {
    for (let i = 0; i < messages.length; i += SEND_BATCH) await queueFromConfig().send('walletPushes', messages.slice(i, i + SEND_BATCH));
  } catch (err) {
    logger.error('wallet push messages could not be sent', { error: err as Error });
    const first = event.Records[0]?.dynamodb?.SequenceNumber;
    return { batchItemFailures: first ? [{ itemIdentifier: first }] : [] };
  }
  return { batchItemFailures: [] };
};

export const handler = traced(handle);
