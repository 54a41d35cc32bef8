/**
 * A per-container cache of values read on most requests and changed rarely (program rules, webhook
 * subscriptions, object type definitions). An entry is served for `ttlMs` after it was read; a
 * change made by this process invalidates it at once. A read that was in flight while any entry was
 * invalidated is returned to its caller but not kept, so it cannot put back what the change removed.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { at: number; value: V }>();
  /** Replaced by every invalidation: a read that started under another one is not kept. */
  private epoch: object = {};

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The value read less than `ttlMs` ago, if any. */
  get(key: string): V | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (this.now() - hit.at < this.ttlMs) return hit.value;
    this.entries.delete(key);
    return undefined;
  }

  /** Keeps a value (e.g. what this process just wrote), evicting the oldest entry when full. */
  set(key: string, value: V): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { at: this.now(), value });
  }

  /** Forgets a key (this process changed what it holds). */
  invalidate(key: string): void {
    this.epoch = {};
    this.entries.delete(key);
  }

  /** The cached value, or `read()`'s, kept unless an invalidation happened while it was read. */
  async load(key: string, read: () => Promise<V>): Promise<V> {
    const hit = this.get(key);
    if (hit !== undefined) return hit;
    const epoch = this.epoch;
    const value = await read();
    if (epoch === this.epoch) this.set(key, value);
    return value;
  }
}
