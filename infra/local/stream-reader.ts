import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type AttributeValue,
  type _Record,
} from '@aws-sdk/client-dynamodb-streams';
import { runtimeConfig } from '../../shared/platform/config';
import { documentClient, tableName } from '../../shared/platform/data/client';
import { keyOf } from '../../shared/platform/data/keys';
import { withoutSdkLog } from '../../shared/platform/observability/sdk-log';
import { getItem, putItem } from '../../shared/platform/data/items';

/**
 * Reading the table's stream (local runtime only: in AWS the Lambda event source mapping does it),
 * and the local stream poller's checkpoints (entity `localStreamCheckpoint`). Records come out in the
 * JSON shape Lambda delivers them in (attribute values as `{ "S": ... }`, binary as base64,
 * ApproximateCreationDateTime in epoch seconds), so the poller has no SDK types to convert.
 */

let client: DynamoDBStreamsClient | undefined;

/** The process's DynamoDB Streams client (exported for tests that count its requests). */
export function streams(): DynamoDBStreamsClient {
  if (!client) {
    const cfg = runtimeConfig();
    client = withoutSdkLog(
      new DynamoDBStreamsClient({
        region: cfg.AWS_REGION,
        ...(cfg.DYNAMODB_ENDPOINT ? { endpoint: cfg.DYNAMODB_ENDPOINT, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
      }),
    );
  }
  return client;
}

export interface StreamShard {
  shardId: string;
  parentShardId?: string;
  startingSequenceNumber?: string;
  /** Set once the shard is closed (no new records will be added). */
  endingSequenceNumber?: string;
}

/** An attribute value in DynamoDB JSON, as Lambda serialises it. */
export type AttributeValueJson = Record<string, unknown>;

export interface StreamRecordJson {
  eventID: string;
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE';
  eventVersion: string;
  dynamodb: {
    ApproximateCreationDateTime?: number;
    Keys?: Record<string, AttributeValueJson>;
    NewImage?: Record<string, AttributeValueJson>;
    OldImage?: Record<string, AttributeValueJson>;
    SequenceNumber: string;
    SizeBytes?: number;
    StreamViewType?: string;
  };
  /** Present on deletions by TTL: `{ type: 'Service', principalId: 'dynamodb.amazonaws.com' }`. */
  userIdentity?: { type: string; principalId: string };
}

/** The ARN of the table's current stream, or undefined if it has none. */
export async function latestStreamArn(): Promise<string | undefined> {
  const out = await documentClient().send(new DescribeTableCommand({ TableName: tableName() }));
  return out.Table?.LatestStreamArn;
}

/** Every shard of the stream (DescribeStream, all pages). */
export async function listShards(streamArn: string): Promise<StreamShard[]> {
  const shards: StreamShard[] = [];
  let start: string | undefined;
  do {
    const out = await streams().send(new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId: start }));
    for (const s of out.StreamDescription?.Shards ?? []) {
      if (!s.ShardId) continue;
      shards.push({
        shardId: s.ShardId,
        ...(s.ParentShardId ? { parentShardId: s.ParentShardId } : {}),
        ...(s.SequenceNumberRange?.StartingSequenceNumber ? { startingSequenceNumber: s.SequenceNumberRange.StartingSequenceNumber } : {}),
        ...(s.SequenceNumberRange?.EndingSequenceNumber ? { endingSequenceNumber: s.SequenceNumberRange.EndingSequenceNumber } : {}),
      });
    }
    start = out.StreamDescription?.LastEvaluatedShardId;
  } while (start);
  return shards;
}

/** An iterator at the oldest record of the shard, or just after `after` (a sequence number). */
export async function shardIterator(streamArn: string, shardId: string, after?: string): Promise<string | undefined> {
  const out = await streams().send(
    new GetShardIteratorCommand({
      StreamArn: streamArn,
      ShardId: shardId,
      ...(after ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: after } : { ShardIteratorType: 'TRIM_HORIZON' }),
    }),
  );
  return out.ShardIterator;
}

/**
 * Up to `limit` records from the iterator. `nextIterator` is undefined once a closed shard has been
 * read to its end.
 */
export async function readRecords(iterator: string, limit: number): Promise<{ records: StreamRecordJson[]; nextIterator?: string }> {
  const out = await streams().send(new GetRecordsCommand({ ShardIterator: iterator, Limit: Math.max(1, Math.min(1000, limit)) }));
  return { records: (out.Records ?? []).map(toJson), ...(out.NextShardIterator ? { nextIterator: out.NextShardIterator } : {}) };
}

/** The iterator is no longer usable (expired, trimmed, or the stream is gone): get a new one. */
export const isStaleIterator = (err: unknown): boolean =>
  err instanceof Error && ['ExpiredIteratorException', 'TrimmedDataAccessException', 'ResourceNotFoundException'].includes(err.name);

function valueToJson(v: AttributeValue): AttributeValueJson {
  if (v.B !== undefined) return { B: Buffer.from(v.B).toString('base64') };
  if (v.BS !== undefined) return { BS: v.BS.map((b) => Buffer.from(b).toString('base64')) };
  if (v.M !== undefined) return { M: imageToJson(v.M) };
  if (v.L !== undefined) return { L: v.L.map(valueToJson) };
  const { $unknown: _, ...rest } = v as AttributeValue & { $unknown?: unknown };
  return rest as AttributeValueJson;
}

function imageToJson(image: Record<string, AttributeValue>): Record<string, AttributeValueJson> {
  const out: Record<string, AttributeValueJson> = {};
  for (const [k, v] of Object.entries(image)) out[k] = valueToJson(v);
  return out;
}

function toJson(r: _Record): StreamRecordJson {
  const d = r.dynamodb ?? {};
  const created = d.ApproximateCreationDateTime as Date | number | undefined;
  return {
    eventID: r.eventID ?? '',
    eventName: r.eventName as StreamRecordJson['eventName'],
    eventVersion: r.eventVersion ?? '1.1',
    dynamodb: {
      ...(created !== undefined ? { ApproximateCreationDateTime: created instanceof Date ? created.getTime() / 1000 : created } : {}),
      ...(d.Keys ? { Keys: imageToJson(d.Keys) } : {}),
      ...(d.NewImage ? { NewImage: imageToJson(d.NewImage) } : {}),
      ...(d.OldImage ? { OldImage: imageToJson(d.OldImage) } : {}),
      SequenceNumber: d.SequenceNumber ?? '',
      ...(d.SizeBytes !== undefined ? { SizeBytes: d.SizeBytes } : {}),
      ...(d.StreamViewType ? { StreamViewType: d.StreamViewType } : {}),
    },
    ...(r.userIdentity?.Type && r.userIdentity.PrincipalId ? { userIdentity: { type: r.userIdentity.Type, principalId: r.userIdentity.PrincipalId } } : {}),
  };
}

/** Where a consumer stands in one shard. */
export interface StreamCheckpoint {
  /** The last sequence number processed (or dropped by the filter); absent: nothing yet. */
  sequenceNumber?: string;
  /** The shard is closed and was read to its end. */
  closed?: boolean;
}

/**
 * Checkpoints are per consumer and shard: the key's `shardId` part is `<consumer>#<shardId>`, so
 * several pollers (the runtime's fan-out, a test's own poller) follow the same stream independently.
 */
const checkpointKey = (consumer: string, shardId: string) => keyOf('localStreamCheckpoint', { shardId: `${consumer}#${shardId}` });

export async function getStreamCheckpoint(consumer: string, shardId: string): Promise<StreamCheckpoint | undefined> {
  const item = await getItem<{ sequenceNumber?: string; closed?: boolean }>(checkpointKey(consumer, shardId));
  if (!item) return undefined;
  return { ...(item.sequenceNumber ? { sequenceNumber: item.sequenceNumber } : {}), ...(item.closed ? { closed: true } : {}) };
}

export async function putStreamCheckpoint(consumer: string, shardId: string, checkpoint: StreamCheckpoint): Promise<void> {
  await putItem({
    Item: {
      ...checkpointKey(consumer, shardId),
      entity: 'localStreamCheckpoint',
      consumer,
      shardId,
      ...(checkpoint.sequenceNumber ? { sequenceNumber: checkpoint.sequenceNumber } : {}),
      ...(checkpoint.closed ? { closed: true } : {}),
      updatedAt: new Date().toISOString(),
    },
  });
}

/** Whether a stream record is about a checkpoint item (the poller's own bookkeeping). */
export const isCheckpointRecord = (r: StreamRecordJson): boolean => {
  const pk = r.dynamodb.Keys?.pk?.S;
  return typeof pk === 'string' && pk.startsWith(keyOf('localStreamCheckpoint', { shardId: 'x' }).pk.slice(0, -1));
};
