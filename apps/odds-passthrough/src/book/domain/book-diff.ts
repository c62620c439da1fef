import type { UpstreamLeague, UpstreamMarket, UpstreamMatchup, UpstreamWithdrawn } from '../../upstream';
import type { BookChange } from './match-odds';
import type { PublicMatch } from './public-match';
import type { Selection } from './selection';

/*
 * What goes into the ingest's book (IngestBook) and what comes out of each
 * call: the upstream loads it applies, the stored seed it restarts from, and
 * the diff that is persisted and published.
 */

export interface BookSport {
  readonly id: number;
  readonly name: string;
}

export interface BookLeague {
  readonly id: number;
  readonly name: string;
  readonly sport_id: number;
}

export interface RemovedMatch {
  readonly id: number;
  readonly sportId: number;
}

/** What one call changed, for persistence and publication. */
export interface BookDiff {
  /** One entry per match whose markets changed, or that appeared or went away. */
  readonly changes: BookChange[];
  /** Match objects that appeared or changed, each with a greater match version. */
  readonly matches: PublicMatch[];
  readonly removedMatches: RemovedMatch[];
  readonly sportsChanged: boolean;
  /** Sports whose league list changed. */
  readonly leaguesChanged: number[];
}

/** A market as last persisted, so a restarted process continues its versions. */
export interface SeedMarket {
  readonly marketKey: string;
  readonly version: number;
  /**
   * The selections last published, or their JSON text as stored; when given, a market that
   * comes back unchanged keeps its version and is not announced again. The text is parsed only
   * when its market is compared: a restarted ingest holds a whole book of seeds until its first
   * load reaches each, and text is a fraction of the objects' size and garbage.
   */
  readonly selections?: readonly Selection[] | string;
}

/** A match as last persisted. */
export interface SeedMatch {
  readonly match: PublicMatch;
  readonly ts: number;
  readonly markets: readonly SeedMarket[];
  /**
   * Its last stored change may never have reached clients: the match object
   * is announced again when next listed (with a greater version), as every
   * market stored without selections is.
   */
  readonly unpublished?: boolean;
}

export interface FullLoad {
  readonly leagues: readonly UpstreamLeague[];
  readonly matchups: readonly UpstreamMatchup[];
  readonly markets: readonly UpstreamMarket[];
}

export interface MatchupsLoad {
  readonly leagues: readonly UpstreamLeague[];
  readonly matchups: readonly UpstreamMatchup[];
}

export interface MarketsDelta {
  readonly markets: readonly UpstreamMarket[];
  readonly withdrawn: readonly UpstreamWithdrawn[];
}
