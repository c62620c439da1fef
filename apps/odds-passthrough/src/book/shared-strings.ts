import type { Selection } from './domain/selection';
import { StringPool } from './domain/string-pool';

/**
 * Api side, part of ReplicaBook: one copy of each string that repeats across
 * the selections it holds. Parsed frames and stored rows give every
 * selection its own copies of its market name, bet name, status and cutoff,
 * and of its market's key; a book of 100,000 markets then holds a million
 * small strings where a few thousand distinct ones would do.
 */
export class SharedStrings {
  private readonly pool = new StringPool();

  /** Points the selections of one market (`key`) at shared strings; returns them. */
  shareMarket<T extends readonly Selection[]>(key: string, selections: T): T {
    for (const selection of selections as readonly Selection[] as Mutable<Selection>[]) {
      selection.market_key = key;
      selection.market_name = this.pool.share(selection.market_name);
      selection.bet_name = this.pool.share(selection.bet_name);
      selection.status = this.pool.share(selection.status);
      selection.cutoff_at = this.pool.share(selection.cutoff_at);
    }
    return selections;
  }
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
