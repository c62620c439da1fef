import { isDatabaseUnavailable } from '@app/database';

/**
 * The last answer PostgreSQL gave for each key, kept so that a read can still
 * be answered while PostgreSQL is out of reach: a match record, a frozen
 * result, a catalog page. Only an outage falls back to it; any other error,
 * and any key never read, still fails. Bounded by entry count, least recently
 * stored first out.
 */
export class LastKnown<T> {
  private readonly entries = new Map<string, T>();

  constructor(private readonly maxEntries: number) {}

  async read(key: string, load: () => Promise<T>): Promise<T> {
    let value: T;
    try {
      value = await load();
    } catch (error) {
      if (isDatabaseUnavailable(error) && this.entries.has(key)) return this.entries.get(key) as T;
      throw error;
    }
    this.remember(key, value);
    return value;
  }

  remember(key: string, value: T): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
  }

  /** The value last stored for the key, if any. */
  recall(key: string): T | undefined {
    return this.entries.get(key);
  }

  get size(): number {
    return this.entries.size;
  }
}
