/** What a poller keeps of the last 200 answer for a URL. */
export interface CachedResponse<T = unknown> {
  readonly etag: string;
  readonly body: T;
}

/**
 * The newest ETag and body per URL, so a poller can send `If-None-Match` and
 * reuse the body on 304. Least recently used entries go first once
 * `maxEntries` is reached.
 */
export class EtagCache {
  private readonly entries = new Map<string, CachedResponse>();

  constructor(private readonly maxEntries = 500) {
    if (!(maxEntries >= 1)) throw new RangeError('maxEntries must be at least 1');
  }

  get size(): number {
    return this.entries.size;
  }

  get<T>(url: string): CachedResponse<T> | undefined {
    const entry = this.entries.get(url);
    if (entry === undefined) return undefined;
    // Re-insert: Map iteration order is insertion order, so this marks it recently used.
    this.entries.delete(url);
    this.entries.set(url, entry);
    return entry as CachedResponse<T>;
  }

  set<T>(url: string, etag: string, body: T): void {
    this.entries.delete(url);
    this.entries.set(url, { etag, body });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  delete(url: string): void {
    this.entries.delete(url);
  }

  clear(): void {
    this.entries.clear();
  }
}
