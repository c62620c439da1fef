/*
 * What odds-passthrough serves (apps/odds-passthrough/src/catalog/book.dto.ts
 * and the stream frames). Ids are the sportsbook's own.
 */

export interface BookSport {
  id: number;
  name: string;
}

export interface BookLeague {
  id: number;
  name: string;
  sport_id: number;
}

export interface BookMatch {
  id: number;
  sport_id: number;
  league_id: number;
  league_name: string | null;
  home: string | null;
  away: string | null;
  start_time: string;
  is_live: boolean;
  parent_id: number | null;
  version: number;
  special?: string;
}

export interface Selection {
  /** Opaque: equality only. */
  market_key: string;
  market_name: string;
  period: number;
  bet_name: string;
  line?: number;
  /** American odds, authoritative. */
  price: number;
  decimal: number;
  status: 'unlocked' | 'locked';
  version: number;
  cutoff_at: string;
  limit: number;
}

export interface MatchOdds {
  match_id: number;
  sport_id: number;
  /** Epoch ms of the last change applied to the match. */
  ts: number;
  selections: Selection[];
}

export interface BookRoute {
  method: string;
  path: string;
  description: string;
}

export interface BookRouteList {
  book: string;
  routes: BookRoute[];
}

/** Frames of `<prefix>/data`. */
export interface BookSnapshotFrame extends MatchOdds {
  type: 'snapshot';
  seq: number;
  prev_seq: number | null;
}

export interface BookUpdateFrame extends MatchOdds {
  type: 'update';
  seq: number;
  prev_seq: number | null;
  removed_market_keys: string[];
}

export interface BookHeartbeatFrame {
  type: 'heartbeat';
  ts: number;
  seq?: number;
  feed_healthy: boolean;
}

export interface BookErrorFrame {
  type: 'error';
  error: string;
}

export type BookFrame = BookSnapshotFrame | BookUpdateFrame | BookHeartbeatFrame | BookErrorFrame;
