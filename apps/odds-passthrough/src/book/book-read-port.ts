import type { ChangePosition } from '@app/messaging';
import type { LeagueInfo, MatchInfo, SportInfo } from './book-messages';
import type { BookChange, MatchOdds } from './domain/match-odds';

/*
 * Api side. The one thing REST, the stream and the book module inject to read
 * the books: every read they make is declared here, so none of them needs the
 * implementation. ReplicaBookService implements it over one ReplicaBook per
 * book; the ingest never reads through it (it keeps its own IngestBook).
 */

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

/** Reads of the books as this api replica holds them; answers from memory, never from the database. */
export abstract class BookReadPort {
  abstract books(): readonly BookConfig[];

  /** Sports of the book, ascending by id. */
  abstract sports(book: string): readonly SportInfo[];

  /** Leagues of the book, ascending by id. */
  abstract leagues(book: string): readonly LeagueInfo[];

  /** Listed matches of the book, by start time then id. */
  abstract matches(book: string): readonly MatchInfo[];

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
