import type { Selection } from './selection';

/** The full current state of one match, as sent in a `snapshot` frame and by GET /odds. */
export interface MatchOdds {
  readonly match_id: number;
  readonly sport_id: number;
  readonly ts: number;
  readonly selections: readonly Selection[];
}

/**
 * Whether two reads of a match are of one state: the same match, sport and
 * `ts`, and the very same selection objects in the same order. A replica
 * replaces a market's selections and never edits them, and a selection locked
 * at read time by its cutoff is a new object, so an encoding of `a` is an
 * encoding of `b`. Cheap: no field is compared.
 */
export function sameOddsState(a: MatchOdds, b: MatchOdds): boolean {
  if (
    a.match_id !== b.match_id ||
    a.sport_id !== b.sport_id ||
    a.ts !== b.ts ||
    a.selections.length !== b.selections.length
  ) {
    return false;
  }
  for (let i = 0; i < a.selections.length; i++) {
    if (a.selections[i] !== b.selections[i]) return false;
  }
  return true;
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
