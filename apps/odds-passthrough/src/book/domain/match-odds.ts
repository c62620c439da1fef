import type { Selection } from './selection';

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
