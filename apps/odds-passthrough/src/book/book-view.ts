import type { BookChange, MatchOdds } from './domain/match-odds';

/** A sportsbook served by this process: its path prefix and the grant a key needs. */
export interface BookConfig {
  /** Name used in NATS subjects and logs, for example `book`. */
  readonly name: string;
  /** REST and stream prefix, for example `/v1/book`. */
  readonly prefix: string;
  /** The sportsbook grant a key must hold, for example `book`. */
  readonly grant: string;
}

/**
 * The api side's replica of the current book state: loaded from shared state at
 * start, then kept current from NATS. REST and the stream read only this.
 */
export abstract class BookView {
  abstract books(): readonly BookConfig[];

  /** Current state of a match with statuses evaluated now; undefined when unknown. */
  abstract snapshot(book: string, matchId: number): MatchOdds | undefined;

  /** The sport of a known match; undefined when unknown. */
  abstract matchSport(book: string, matchId: number): number | undefined;

  /** Ids of the known matches, optionally only those of one sport. */
  abstract matchIds(book: string, sportId?: number): readonly number[];

  /**
   * Calls the listener for every change applied, with the `update` frame
   * already serialised once (shared by every subscriber of that match).
   */
  abstract onChange(listener: (change: BookChange, updateFrame: string) => void): () => void;

  /** True while the ingest has loaded the book in full and polled it within three poll intervals. */
  abstract feedHealthy(book: string): boolean;
}
