/**
 * The sportsbook's wire model, as validated by the parsers in this folder.
 * Times are already normalised to `YYYY-MM-DDTHH:MM:SSZ`.
 */

export interface UpstreamSport {
  readonly id: number;
  readonly name: string;
}

/** One row of a sport's period label table. */
export interface UpstreamPeriodLabel {
  readonly number: number;
  readonly description: string;
}

export interface UpstreamLeague {
  readonly id: number;
  readonly name: string;
}

export type UpstreamAlignment = 'home' | 'away' | 'neutral';

export interface UpstreamParticipant {
  readonly id: number;
  readonly alignment: UpstreamAlignment;
  readonly name: string;
}

export interface UpstreamMatchupPeriod {
  readonly number: number;
  /** `open`, `suspended` or `closed`; anything but `open` locks. */
  readonly status: string;
  readonly cutoff_at?: string;
}

export type UpstreamMatchupType = 'matchup' | 'special';

export interface UpstreamMatchup {
  readonly id: number;
  readonly league_id: number;
  readonly type: UpstreamMatchupType;
  readonly parent_id: number | null;
  readonly is_live: boolean;
  readonly start_time: string;
  readonly version: number;
  readonly participants: readonly UpstreamParticipant[];
  readonly periods: readonly UpstreamMatchupPeriod[];
  /** Present on specials only. */
  readonly special?: { readonly description: string };
}

export type UpstreamMarketType = 'moneyline' | 'spread' | 'total' | 'team_total';

export interface UpstreamLimit {
  readonly type: string;
  readonly amount: number;
}

export interface UpstreamPrice {
  readonly designation?: string;
  readonly participant_id?: number;
  readonly points?: number;
  readonly price: number;
}

export interface UpstreamMarket {
  readonly matchup_id: number;
  readonly key: string;
  readonly type: UpstreamMarketType;
  readonly period: number;
  readonly is_alternate: boolean;
  readonly status?: string;
  readonly cutoff_at?: string;
  readonly version: number;
  /** Team totals only. */
  readonly side?: 'home' | 'away';
  readonly limits: readonly UpstreamLimit[];
  readonly prices: readonly UpstreamPrice[];
}

/** Body of `GET /sports/{sport}/markets`. */
export interface UpstreamMarketsFull {
  readonly last: number;
  readonly markets: readonly UpstreamMarket[];
}

/** A market the book no longer lists, named by its own key. */
export interface UpstreamWithdrawn {
  readonly matchup_id: number;
  readonly key: string;
}

/** Body of `GET /sports/{sport}/markets?since=...`. */
export interface UpstreamMarketsDelta {
  readonly last: number;
  readonly markets: readonly UpstreamMarket[];
  readonly withdrawn: readonly UpstreamWithdrawn[];
}

export type ParseResult<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };
