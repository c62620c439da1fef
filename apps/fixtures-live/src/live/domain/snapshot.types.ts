import type { SoccerStatKey } from '../../upstream/livescores.types';

/**
 * Public live snapshots (fixtures-live specification, section 2), without
 * `match_id`: stream frames add it, REST omits it.
 */

export const CATALOG_STATUSES = ['NOT_STARTED', 'STARTED', 'CLOSE_OF_PLAY', 'FINISHED'] as const;
export type CatalogStatus = (typeof CATALOG_STATUSES)[number];

/** Catalog statuses that count as live: shown by /leagues/active, /matches/live and friends. */
export const LIVE_CATALOG_STATUSES: readonly CatalogStatus[] = ['STARTED', 'CLOSE_OF_PLAY'];

export type MatchType = 'test' | 't20' | 'one_day' | 'the_hundred' | 'limited_overs';

export type SoccerStatus = 'not_started' | 'live' | 'ht' | 'ft' | 'et' | 'shootout';
export type CricketStatus = 'not_started' | 'live' | 'innings_break' | 'stopped' | 'ended';

export type TeamSide = 'home' | 'away';

export interface HomeAway<T> {
  home: T;
  away: T;
}

/** Upstream reference ids; `stat_id` always, the others when the provider has them. */
export interface ProviderRef {
  stat_id: string;
  live_id?: string;
  fixture_id?: string;
}

export interface SoccerClock {
  minute: number;
  second: number;
  period: string;
  running: boolean;
  added: number;
  /** Wall time that minute:second corresponds to; omitted before kick-off. */
  as_of?: string;
}

export interface SoccerScore extends HomeAway<number> {
  /** Penalty shootout tally, once a shootout has begun. */
  shootout?: HomeAway<number>;
}

export interface SoccerPhase {
  team: TeamSide | '';
  code: string;
  label: string;
  vc: number;
}

export type SoccerEventType =
  'goal' | 'corner' | 'yellow_card' | 'red_card' | 'penalty' | 'substitution' | 'shootout' | 'event';

export interface SoccerEvent {
  minute: string;
  type: SoccerEventType;
  team: TeamSide;
  label: string;
  /** "home-away" after the goal; only on goal events. */
  score?: string;
}

export interface SoccerBall {
  x: number;
  y: number;
  /** Decoded phase code of what the ball is doing (e.g. `dangerous_attack`). */
  event: string;
  /** Only when anchored to a notable event. */
  minute?: string;
  /** Only when anchored to a notable event and the provider describes it. */
  detail?: string;
}

/** Only the stat keys the provider sent; each is `{home, away}`. */
export type SoccerStats = Partial<Record<SoccerStatKey, HomeAway<number>>>;

export interface SoccerSnapshot {
  v: 1;
  provider: ProviderRef;
  sport: 'soccer';
  competition: string;
  home: string;
  away: string;
  status: SoccerStatus;
  clock: SoccerClock;
  score: SoccerScore;
  phase: SoccerPhase;
  stats: SoccerStats;
  /** Timeline incidents in provider order; null while there are none. */
  events: SoccerEvent[] | null;
  ball?: SoccerBall;
  /** Expected goals so far per team (fractional). Omitted when the provider has none. */
  xg?: HomeAway<number>;
  /**
   * Momentum series, one value per minute played, each in [-1, 1]; positive means
   * the home team is pressing. Omitted when the provider has none.
   */
  pressure?: number[];
  /**
   * Recent form per team as the provider writes it, most recent last
   * (W win, D draw, L loss, e.g. "WWDLW"). Omitted when the provider has none.
   */
  form?: HomeAway<string>;
  updated_at: string;
}

export interface CricketScore {
  runs: number;
  wickets: number;
  overs: string;
  raw: string;
}

export interface CricketOver {
  /** 1-based number of the over in progress. */
  over: number;
  ball: number;
  this_over: string[];
}

export interface CricketBatsman {
  name: string;
  runs: number;
  balls: number;
  /** true on the striker only; omitted on the non-striker. */
  on_strike?: true;
}

export interface CricketBowler {
  name: string;
  overs: string;
  maidens: number;
  runs: number;
  wickets: number;
}

export interface CricketLastEvent {
  vc: number;
  team: TeamSide | '';
  code: string;
  label: string;
}

export interface CricketSnapshot {
  sport: 'cricket';
  competition: string;
  home: string;
  away: string;
  status: CricketStatus;
  match_type: MatchType;
  innings: number;
  batting: TeamSide;
  score: CricketScore;
  /** Raw upstream score, possibly with earlier innings ("412 & 245/6"). */
  set_score?: string;
  over: CricketOver;
  batsmen: CricketBatsman[];
  bowler: CricketBowler;
  last_event?: CricketLastEvent;
  /** Innings in order, in the public scorecard shape, as the provider sends them. */
  scorecard?: unknown[];
  t: string;
}

export type LiveSnapshot = SoccerSnapshot | CricketSnapshot;
