import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type AttributeValue,
  type _Record,
} from '@aws-sdk/client-dynamodb-streams';
import type { RuntimeInfo } from './platform';

/**
 * Every write to the running platform's table from now on, read from the table's stream (what the
 * platform's own stream poller follows; a reader of its own does not disturb it). Tests use it to see
 * exactly which items a request wrote, without scanning the table: `drain()` after each request.
 *
 * DynamoDB Local writes a change's stream record with the change itself, so once a response is in,
 * its writes are readable. Shards open at the start are followed from their newest record, shards
 * that appear later from their first.
 */

export interface ItemChange {
  key: { pk: string; sk: string };
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE';
  /** The item before and after this write (undefined: did not exist). */
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
  /** A deletion by TTL (done by the store itself, not by a request). */
  byTtl: boolean;
}

interface Follow {
  iterator?: string;
  /** The shard was closed and read to its end. */
  done: boolean;
}

/** An attribute value as plain data: numbers stay strings (exact), binary becomes base64. */
function plain(v: AttributeValue): unknown {
  if (v.S !== undefined) return v.S;
  if (v.N !== undefined) return { N: v.N };
  if (v.BOOL !== undefined) return v.BOOL;
  if (v.NULL !== undefined) return null;
  if (v.B !== undefined) return { B: Buffer.from(v.B).toString('base64') };
  if (v.M !== undefined) return image(v.M);
  if (v.L !== undefined) return v.L.map(plain);
  if (v.SS !== undefined) return { SS: [...v.SS].sort() };
  if (v.NS !== undefined) return { NS: [...v.NS].sort() };
  if (v.BS !== undefined) return { BS: v.BS.map((b) => Buffer.from(b).toString('base64')).sort() };
  const { $unknown: _, ...rest } = v as AttributeValue & { $unknown?: unknown };
  return rest;
}

function image(img: Record<string, AttributeValue> | undefined): Record<string, unknown> | undefined {
  if (!img) return undefined;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(img)) out[k] = plain(v);
  return out;
}

function toChange(r: _Record): ItemChange {
  const keys = image(r.dynamodb?.Keys) ?? {};
  return {
    key: { pk: String(keys.pk), sk: String(keys.sk) },
    eventName: r.eventName as ItemChange['eventName'],
    before: image(r.dynamodb?.OldImage),
    after: image(r.dynamodb?.NewImage),
    byTtl: r.userIdentity?.Type === 'Service',
  };
}

export class TableChanges {
  private readonly follows = new Map<string, Follow>();
  private refreshedAt = 0;

  private constructor(
    private readonly streams: DynamoDBStreamsClient,
    private readonly streamArn: string,
  ) {}

  static async start(runtime: RuntimeInfo): Promise<TableChanges> {
    const options = { endpoint: runtime.dynamodbEndpoint, region: 'eu-west-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } };
    const table = await new DynamoDBClient(options).send(new DescribeTableCommand({ TableName: runtime.tableName }));
    const arn = table.Table?.LatestStreamArn;
    if (!arn) throw new Error(`table ${runtime.tableName} has no stream`);
    const changes = new TableChanges(new DynamoDBStreamsClient(options), arn);
    await changes.refresh(true);
    return changes;
  }

  /** Picks up shards that appeared since the last look; at the start, open shards are followed from their newest record. */
  private async refresh(initial = false): Promise<void> {
    this.refreshedAt = Date.now();
    let start: string | undefined;
    do {
      const out = await this.streams.send(new DescribeStreamCommand({ StreamArn: this.streamArn, ExclusiveStartShardId: start }));
      for (const shard of out.StreamDescription?.Shards ?? []) {
        const id = shard.ShardId;
        if (!id || this.follows.has(id)) continue;
        const closed = shard.SequenceNumberRange?.EndingSequenceNumber !== undefined;
        if (initial && closed) {
          this.follows.set(id, { done: true });
          continue;
        }
        const it = await this.streams.send(
          new GetShardIteratorCommand({ StreamArn: this.streamArn, ShardId: id, ShardIteratorType: initial ? 'LATEST' : 'TRIM_HORIZON' }),
        );
        this.follows.set(id, { iterator: it.ShardIterator, done: !it.ShardIterator });
      }
      start = out.StreamDescription?.LastEvaluatedShardId;
    } while (start);
  }

  /**
   * Every write since the previous call (or the start), oldest first per shard. A shard read to its
   * end has children: the shard list is read again at once (and at least every second anyway).
   */
  async drain(): Promise<ItemChange[]> {
    const changes: ItemChange[] = [];
    let closed = Date.now() - this.refreshedAt > 1000;
    for (let round = 0; round < 5; round++) {
      if (closed) await this.refresh();
      closed = false;
      for (const follow of this.follows.values()) {
        while (!follow.done && follow.iterator) {
          const out = await this.streams.send(new GetRecordsCommand({ ShardIterator: follow.iterator, Limit: 1000 }));
          for (const r of out.Records ?? []) changes.push(toChange(r));
          follow.iterator = out.NextShardIterator;
          if (!follow.iterator) follow.done = closed = true;
          if (!out.Records?.length) break;
        }
      }
      if (!closed) break;
    }
    return changes;
  }
}

/**
 * The net effect of a series of writes: per item, its state before the first and after the last
 * write; items that ended as they began are left out.
 */
export function netChanges(changes: ItemChange[]): { key: { pk: string; sk: string }; before?: Record<string, unknown>; after?: Record<string, unknown> }[] {
  const byKey = new Map<string, { key: { pk: string; sk: string }; before?: Record<string, unknown>; after?: Record<string, unknown> }>();
  for (const c of changes) {
    const id = `${c.key.pk}\u0000${c.key.sk}`;
    const seen = byKey.get(id);
    if (seen) seen.after = c.after;
    else byKey.set(id, { key: c.key, before: c.before, after: c.after });
  }
  return [...byKey.values()].filter((c) => canonical(c.before) !== canonical(c.after));
}

/** JSON with sorted keys, to compare item images. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}
