import type { UpstreamMatchup } from '../../upstream';

/** The match object served by REST; its field names are part of the public contract. */
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
