/** Distinct strings kept at most; past it the pool starts afresh (what is held keeps its copies). */
const MAX_STRINGS = 50_000;

/**
 * Both sides: one copy of each string that repeats across a book's markets.
 * Every market of a big book builds or parses its own copies of the same few
 * thousand names, keys and labels; through a pool, equal strings held by
 * 100,000 markets are one string. Bounded, so a book of ever new names does
 * not grow it without end.
 */
export class StringPool {
  private readonly pool = new Map<string, string>();

  /** How many distinct strings it holds now. */
  get size(): number {
    return this.pool.size;
  }

  /** Whether it holds a string equal to `value`. */
  has(value: string): boolean {
    return this.pool.has(value);
  }

  share<S extends string>(value: S): S {
    const held = this.pool.get(value);
    if (held !== undefined) return held as S;
    if (this.pool.size >= MAX_STRINGS) this.pool.clear();
    this.pool.set(value, value);
    return value;
  }
}
