/**
 * Wire shapes of the livescores provider, as they are after a successful parse
 * (see livescores.parsers.ts). Provider ids are opaque strings: compare, never parse.
 */

export interface UpstreamSport {
  readonly id: string;
  readonly key: string;
  readonly name: string;
}

export interface UpstreamLeague {
  readonly id: string;
  readonly name: string;
}

export interface UpstreamTeam {
  readonly id: string;
  readonly name: string;
}

export const UPSTREAM_MATCH_STATUSES = [
  'scheduled',
  'in_play',
  'close_of_play',
  'finished',
  'suspended',
  'postponed',
  'cancelled',
] as const;
export type UpstreamMatchStatus = (typeof UPSTREAM_MATCH_STATUSES)[number];

export const CRICKET_FORMATS = ['test', 't20', 'one_day', 'the_hundred'] as const;
export type CricketFormat = (typeof CRICKET_FORMATS)[number];

export interface UpstreamMatch {
  readonly id: string;
  readonly stat_id: string;
  readonly live_id: string | null;
  readonly home_team_id: string;
  readonly away_team_id: string;
  /** RFC 3339 as sent (validated). */
  readonly start_time: string;
  readonly status: UpstreamMatchStatus;
  /** Cricket only; null when unknown, absent or not a format we know. */
  readonly format: CricketFormat | null;
}

export interface UpstreamKit {
  readonly url: string;
}

export type Side = 'home' | 'away';
/** A side, or '' when the provider attributes the code to neither team. */
export type SideOrNone = Side | '';

export type Pair<T> = readonly [T, T];

export const SOCCER_UPSTREAM_STATUSES = ['not_started', '1h', 'ht', '2h', 'et', 'pen', 'ft'] as const;
export type SoccerUpstreamStatus = (typeof SOCCER_UPSTREAM_STATUSES)[number];

export const SOCCER_STAT_KEYS = [
  'shots_on_target',
  'shots_off_target',
  'attacks',
  'dangerous_attacks',
  'possession',
  'corners',
  'yellow_cards',
  'red_cards',
] as const;
export type SoccerStatKey = (typeof SOCCER_STAT_KEYS)[number];

export interface UpstreamSoccerClock {
  readonly minute: number;
  readonly second: number;
  readonly period: string;
  readonly running: boolean;
  readonly added: number;
  /** Wall time that minute:second corresponds to; absent before kick-off. */
  readonly at?: string;
}

export interface UpstreamSoccerScore {
  readonly home: number;
  readonly away: number;
  readonly shootout?: { readonly home: number; readonly away: number };
}

export interface UpstreamPhase {
  readonly vc: number;
  readonly team: SideOrNone;
}

export interface UpstreamIncident {
  readonly vc: number;
  /** Match minute as text ("17", "45+2"). */
  readonly minute: string;
  readonly team: Side;
  readonly player?: string;
  /** "home-away" after the incident; meaningful on goals. */
  readonly score?: string;
}

export interface UpstreamBall {
  readonly x: number;
  readonly y: number;
  readonly vc: number;
  /** Present (with detail) when the position is anchored to a notable event. */
  readonly minute?: string;
  readonly detail?: string;
}

/**
 * The extras we understand. The provider may send anything else under
 * `extras`; unknown entries and entries of an unexpected shape are dropped.
 */
export interface UpstreamSoccerExtras {
  readonly xg?: Pair<number>;
  readonly pressure?: readonly number[];
  readonly form?: Pair<string>;
}

export interface UpstreamSoccerState {
  readonly sport: 'soccer';
  readonly competition?: string;
  readonly status: SoccerUpstreamStatus;
  readonly clock: UpstreamSoccerClock;
  readonly score: UpstreamSoccerScore;
  readonly phase: UpstreamPhase;
  readonly stats: Partial<Record<SoccerStatKey, Pair<number>>>;
  readonly incidents: readonly UpstreamIncident[];
  readonly ball?: UpstreamBall;
  readonly extras?: UpstreamSoccerExtras;
}

export const CRICKET_UPSTREAM_STATUSES = [
  'not_started',
  'live',
  'innings_break',
  'rain',
  'bad_light',
  'lunch',
  'tea',
  'drinks',
  'stumps',
  'ended',
] as const;
export type CricketUpstreamStatus = (typeof CRICKET_UPSTREAM_STATUSES)[number];

export interface UpstreamCricketOver {
  readonly number: number;
  readonly ball: number;
  readonly this_over: readonly string[];
}

export interface UpstreamBatsman {
  readonly name: string;
  readonly runs: number;
  readonly balls: number;
  readonly on_strike?: boolean;
}

export interface UpstreamBowler {
  readonly name: string;
  readonly overs: string;
  readonly maidens: number;
  readonly runs: number;
  readonly wickets: number;
}

export interface UpstreamCricketEvent {
  readonly vc: number;
  readonly team: SideOrNone;
}

export interface UpstreamCricketState {
  readonly sport: 'cricket';
  readonly competition?: string;
  readonly status: CricketUpstreamStatus;
  readonly format: CricketFormat | null;
  readonly innings: number;
  readonly batting: Side;
  /** Raw score string, e.g. "245/6 (61.2)"; parsed by the snapshot builder. */
  readonly score: string;
  readonly set_score?: string;
  readonly over: UpstreamCricketOver;
  readonly batsmen: readonly UpstreamBatsman[];
  readonly bowler: UpstreamBowler;
  readonly last_event?: UpstreamCricketEvent;
  /** Already in the public scorecard shape; passed through untouched. */
  readonly scorecard?: readonly unknown[];
  readonly at?: string;
}

export type UpstreamLiveState = UpstreamSoccerState | UpstreamCricketState;

/** One message of the live stream (and the body of `GET /live/{stat_id}`). */
export interface UpstreamLiveEnvelope {
  readonly stat_id: string;
  readonly seq: number;
  readonly sent_at: string;
  readonly state: UpstreamLiveState;
}
