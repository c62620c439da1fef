/**
 * Loads of one key that overlap share one: a burst of subscribes to one match
 * (a replica's trading desks reconnecting at once) reads it from PostgreSQL
 * once, not once per client, and does not queue that many identical queries
 * for the connection pool. Only for reads whose callers accept the answer of a
 * read that began a moment before they asked; a cache that must not hand out
 * a load begun before its last change notice (CatalogReadCache) cannot use it.
 */
export class SharedLoads<K, T> {
  private readonly running = new Map<K, Promise<T>>();

  /** The load of `key` under way, or a new one by `load`. */
  run(key: K, load: () => Promise<T>): Promise<T> {
    const running = this.running.get(key);
    if (running) return running;
    const started: Promise<T> = load().finally(() => {
      if (this.running.get(key) === started) this.running.delete(key);
    });
    this.running.set(key, started);
    return started;
  }
}
