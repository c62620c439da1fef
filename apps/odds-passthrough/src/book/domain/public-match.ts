import type { UpstreamMatchup } from '../../upstream';

/**
 * The match object served by REST; its field names are part of the public
 * contract. Its fields go out in the order declared here, on every process
 * (see `publicMatch`).
 */
export interface PublicMatch {
  readonly id: number;
  readonly sport_id: number;
  readonly league_id: number;
  readonly league_name: string | null;
  readonly home: string | null;
  readonly away: string | null;
  readonly start_time: string;
  readonly is_live: boolean;
  readonly parent_id: number | null;
  readonly version: number;
  /** Specials only: the special's description. */
  readonly special?: string;
}

export type PublicMatchFields = Omit<PublicMatch, 'version'>;

/**
 * The match with its fields in the declared order, whatever order `fields`
 * has: a body read back from a PostgreSQL `jsonb` column comes with its keys
 * sorted by length, and every replica must serialise a match to the same
 * bytes (equal bodies, equal ETags) whether it heard the match on NATS or
 * loaded it from the database.
 */
export function publicMatch(fields: PublicMatchFields, version: number): PublicMatch {
  return {
    id: fields.id,
    sport_id: fields.sport_id,
    league_id: fields.league_id,
    league_name: fields.league_name,
    home: fields.home,
    away: fields.away,
    start_time: fields.start_time,
    is_live: fields.is_live,
    parent_id: fields.parent_id,
    version,
    ...(fields.special === undefined ? {} : { special: fields.special }),
  };
}

export function matchFields(
  sportId: number,
  matchup: UpstreamMatchup,
  leagueName: string | undefined,
): PublicMatchFields {
  return {
    id: matchup.id,
    sport_id: sportId,
    league_id: matchup.league_id,
    league_name: leagueName ?? null,
    home: matchup.participants.find((p) => p.alignment === 'home')?.name ?? null,
    away: matchup.participants.find((p) => p.alignment === 'away')?.name ?? null,
    start_time: matchup.start_time,
    is_live: matchup.is_live,
    parent_id: matchup.parent_id,
    ...(matchup.special === undefined ? {} : { special: matchup.special.description }),
  };
}

export function sameMatchFields(a: PublicMatchFields, b: PublicMatchFields): boolean {
  return (
    a.id === b.id &&
    a.sport_id === b.sport_id &&
    a.league_id === b.league_id &&
    a.league_name === b.league_name &&
    a.home === b.home &&
    a.away === b.away &&
    a.start_time === b.start_time &&
    a.is_live === b.is_live &&
    a.parent_id === b.parent_id &&
    a.special === b.special
  );
}
