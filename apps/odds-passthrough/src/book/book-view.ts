import type { ChangePosition } from '@app/messaging';
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

export type BookChangeListener = (change: BookChange, updateFrame: string, position: ChangePosition) => void;

/**
 * The api side's replica of the current book state: loaded from shared state at
 * start, then kept current from NATS. REST and the stream read only this.
 */
export abstract class BookView {
  abstract books(): readonly BookConfig[];

  /** Current state of a match with statuses evaluated now; undefined when unknown. */
  abstract snapshot(book: string, matchId: number): MatchOdds | undefined;

  /** Where a known match's state stands in the book's change log; undefined when unknown. */
  abstract matchPosition(book: string, matchId: number): ChangePosition | undefined;

  /** The newest change-log position this replica has applied for the book (0 before any). */
  abstract newestSeq(book: string): number;

  /** The sport of a known match; undefined when unknown. */
  abstract matchSport(book: string, matchId: number): number | undefined;

  /** Ids of the known matches, optionally only those of one sport. */
  abstract matchIds(book: string, sportId?: number): readonly number[];

  /**
   * Calls the listener for every change applied, with the `update` frame
   * already serialised once (shared by every subscriber of that match) and
   * its change-log position.
   */
  abstract onChange(listener: BookChangeListener): () => void;

  /** True while the ingest has loaded the book in full and polled it within three poll intervals. */
  abstract feedHealthy(book: string): boolean;
}
