/**
 * Answers of catalog list reads, kept for a short while and dropped whenever
 * the ingest reports a change (over NATS, see CatalogReadCache). Loads that
 * started before a drop are not kept, so a stale answer cannot outlive the
 * change it missed. Pure: time comes in as numbers.
 */
export class ReadCache {
  private readonly entries = new Map<string, { storedAt: number; value: Promise<unknown> }>();
  private generation = 0;

  constructor(
    private readonly maxAgeMs: number,
    private readonly maxEntries: number,
  ) {}

  get<T>(key: string, now: number, load: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    if (hit && now - hit.storedAt < this.maxAgeMs && now >= hit.storedAt) return hit.value as Promise<T>;
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

  /** Grows by one at every `clear`: a load started in an older generation is stale. */
  get currentGeneration(): number {
    return this.generation;
  }

  get size(): number {
    return this.entries.size;
  }

  private dropIfSame(key: string, value: Promise<unknown>): void {
    if (this.entries.get(key)?.value === value) this.entries.delete(key);
  }
}
