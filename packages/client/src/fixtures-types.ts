/*
 * What fixtures-live serves, as its response classes and snapshot types
 * declare them (apps/fixtures-live/src/**). Unknown fields may be added by
 * the service at any time; treat every optional field as possibly absent.
 */

export type CatalogStatus = 'NOT_STARTED' | 'STARTED' | 'CLOSE_OF_PLAY' | 'FINISHED';

export interface Sport {
  id: number;
  name: string;
}

export interface League {
  id: number;
  name: string;
}

export interface Team {
  /** Opaque: compare for equality only. */
  id: string;
  name: string;
  /** Empty until the kit has been resolved. */
  silk_url: string;
}

export interface Match {
  id: number;
  home_team: string;
  away_team: string;
  start_time: string;
  status: CatalogStatus;
}

/** The pagination envelope of list endpoints. */
export interface Page<T> {
  items: T[];
  total: number;
  limit: number;
  offset: number;
  count: number;
  page: number;
  total_pages: number;
  has_more: boolean;
}

export interface HomeAway<T> {
  home: T;
  away: T;
}

export type TeamSide = 'home' | 'away';

export interface SoccerClock {
  minute: number;
  second: number;
  period: string;
  running: boolean;
  added: number;
  as_of?: string;
}

export interface SoccerEvent {
  minute: string;
  type: 'goal' | 'corner' | 'yellow_card' | 'red_card' | 'penalty' | 'substitution' | 'shootout' | 'event';
  team: TeamSide;
  label: string;
  score?: string;
}

export interface SoccerSnapshot {
  v: 1;
  match_id?: number;
  provider?: { stat_id: string; live_id?: string; fixture_id?: string };
  sport: 'soccer';
  competition: string;
  home: string;
  away: string;
  status: 'not_started' | 'live' | 'ht' | 'ft' | 'et' | 'shootout';
  clock: SoccerClock;
  score: HomeAway<number> & { shootout?: HomeAway<number> };
  phase: { team: TeamSide | ''; code: string; label: string; vc: number };
  stats: Partial<Record<string, HomeAway<number>>>;
  events: SoccerEvent[] | null;
  ball?: { x: number; y: number; event: string; minute?: string; detail?: string };
  xg?: HomeAway<number>;
  /** One value per minute played in [-1, 1]; positive: the home team presses. */
  pressure?: number[];
  form?: HomeAway<string>;
  updated_at: string;
}

export interface CricketOverRow {
  over: number;
  runs: number;
  score: string;
}

export interface CricketInnings {
  team: string;
  phase: string;
  score?: string;
  live?: boolean;
  overs?: CricketOverRow[];
  [field: string]: unknown;
}

export interface CricketSnapshot {
  match_id?: number;
  sport: 'cricket';
  competition: string;
  home: string;
  away: string;
  status: 'not_started' | 'live' | 'innings_break' | 'stopped' | 'ended';
  match_type: 'test' | 't20' | 'one_day' | 'the_hundred' | 'limited_overs';
  innings: number;
  batting: TeamSide;
  score: { runs: number; wickets: number; overs: string; raw: string };
  set_score?: string;
  over: { over: number; ball: number; this_over: string[] };
  batsmen: { name: string; runs: number; balls: number; on_strike?: true }[];
  bowler: { name: string; overs: string; maidens: number; runs: number; wickets: number };
  last_event?: { vc: number; team: TeamSide | ''; code: string; label: string };
  scorecard?: CricketInnings[];
  t: string;
}

export type LiveSnapshot = SoccerSnapshot | CricketSnapshot;

export interface MatchResult {
  half_time: LiveSnapshot | null;
  full_time: LiveSnapshot | null;
}

export interface FixturesHealth {
  status: string;
  [field: string]: unknown;
}

/** Frames of `/v1/stream`. */
export interface LiveDataFrame {
  op: 'snapshot' | 'update';
  seq: number;
  prev_seq: number | null;
  data: LiveSnapshot & { match_id: number };
}

export interface LiveHeartbeatFrame {
  op: 'heartbeat';
  ts: number;
  seq: number;
  feed_healthy: boolean;
}

export interface LiveErrorFrame {
  op: 'error';
  error: string;
}

export type LiveFrame = LiveDataFrame | LiveHeartbeatFrame | LiveErrorFrame;
