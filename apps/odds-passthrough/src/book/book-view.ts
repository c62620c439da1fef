import type { Selection } from './domain/selection';

/** A sportsbook served by this process: its path prefix and the grant a key needs. */
export interface BookConfig {
  /** Name used in NATS subjects and logs, for example `book`. */
  readonly name: string;
  /** REST and stream prefix, for example `/v1/book`. */
  readonly prefix: string;
  /** The sportsbook grant a key must hold, for example `book`. */
  readonly grant: string;
}

/** The full current state of one match, as sent in a `snapshot` frame and by GET /odds. */
export interface MatchOdds {
  readonly match_id: number;
  readonly sport_id: number;
  readonly ts: number;
  readonly selections: readonly Selection[];
}

/** What changed in one match, as applied by every api replica. */
export interface BookChange {
  readonly book: string;
  readonly matchId: number;
  readonly sportId: number;
  readonly ts: number;
  /** Selections of every market that changed, all selections of each such market. */
  readonly selections: readonly Selection[];
  readonly removedMarketKeys: readonly string[];
  /** The book withdrew the whole matchup: its markets are all in removedMarketKeys. */
  readonly matchRemoved: boolean;
  /** True when the match was not known before this change (a new matchup). */
  readonly matchAdded: boolean;
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

  /** True while the ingest's last successful poll is recent (decisions.md rule). */
  abstract feedHealthy(book: string): boolean;
}
