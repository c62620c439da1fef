/**
 * Answers of catalog list reads, kept for a short while and dropped whenever
 * the ingest reports a change (over NATS, see CatalogReadCache). Loads that
 * started before a drop are not kept, so a stale answer cannot outlive the
 * change it missed. Pure: time comes in as numbers.
 */
/** When a load started, and in which generation of the cache (see `ReadCache.isCurrent`). */
export interface LoadStamp {
  readonly storedAt: number;
  readonly generation: number;
}

export class ReadCache {
  private readonly entries = new Map<string, { storedAt: number; value: Promise<unknown> }>();
  private generation = 0;

  constructor(
    private readonly maxAgeMs: number,
    private readonly maxEntries: number,
  ) {}

  get<T>(key: string, now: number, load: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    if (hit && this.young(hit.storedAt, now)) return hit.value as Promise<T>;
    const generation = this.generation;
    const value = load();
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, { storedAt: now, value });
    value.then(
      () => {
        if (this.generation !== generation) this.dropIfSame(key, value);
      },
      () => this.dropIfSame(key, value),
    );
    return value;
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  /** What `isCurrent` needs to judge, later, a load starting at `now`. */
  stamp(now: number): LoadStamp {
    return { storedAt: now, generation: this.generation };
  }

  /** Whether a load so stamped is one `get` would still serve: no `clear` since it started, and young enough. */
  isCurrent(stamp: LoadStamp, now: number): boolean {
    return stamp.generation === this.generation && this.young(stamp.storedAt, now);
  }

  get size(): number {
    return this.entries.size;
  }

  private young(storedAt: number, now: number): boolean {
    return now >= storedAt && now - storedAt < this.maxAgeMs;
  }

  private dropIfSame(key: string, value: Promise<unknown>): void {
    if (this.entries.get(key)?.value === value) this.entries.delete(key);
  }
}
