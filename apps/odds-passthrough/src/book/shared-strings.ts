import type { Selection } from './domain/selection';

/** Distinct strings kept at most; past it the pool starts afresh (what is held keeps its copies). */
const MAX_STRINGS = 50_000;

/**
 * Api side, part of ReplicaBook: one copy of each string that repeats across
 * the selections it holds. Parsed frames and stored rows give every
 * selection its own copies of its market name, bet name, status and cutoff,
 * and of its market's key; a book of 100,000 markets then holds a million
 * small strings where a few thousand distinct ones would do.
 */
export class SharedStrings {
  private readonly pool = new Map<string, string>();

  /** Points the selections of one market (`key`) at shared strings; returns them. */
  shareMarket<T extends readonly Selection[]>(key: string, selections: T): T {
    for (const selection of selections as readonly Selection[] as Mutable<Selection>[]) {
      selection.market_key = key;
      selection.market_name = this.share(selection.market_name);
      selection.bet_name = this.share(selection.bet_name);
      selection.status = this.share(selection.status);
      selection.cutoff_at = this.share(selection.cutoff_at);
    }
    return selections;
  }

  private share<S extends string>(value: S): S {
    const held = this.pool.get(value);
    if (held !== undefined) return held as S;
    if (this.pool.size >= MAX_STRINGS) this.pool.clear();
    this.pool.set(value, value);
    return value;
  }
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
