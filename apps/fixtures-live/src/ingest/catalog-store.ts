import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { catalogStatusFromProvider } from '../live/domain';
import { teamIdFor } from './team-id';
import type {
  UpstreamLeague,
  UpstreamMatch,
  UpstreamSport,
  UpstreamTeam,
} from '../upstream/livescores.types';

/** Rows per statement when writing a league's matches. */
const MATCH_BATCH = 500;

/** What an upsert answers, and whether it wrote any row (a provider answer equal to what is stored writes none). */
export interface Written<T> {
  readonly value: T;
  readonly changed: boolean;
}

/**
 * Writes what a catalog poll read. Ids come from sequences on first sight and
 * are found again through the provider id ever after; nothing is deleted, so
 * a match that drops out of a poll keeps its id and its history.
 */
@Injectable()
export class CatalogStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Our id for the sport, matched by its provider key (the key CLI names sports by it). */
  async upsertSport(sport: UpstreamSport): Promise<Written<number>> {
    const rows = await this.db.query<Array<{ id: number }>>(
      `INSERT INTO fixtures.sports (provider_key, provider_id, name) VALUES ($1, $2, $3)
       ON CONFLICT (provider_key) DO UPDATE SET provider_id = EXCLUDED.provider_id, name = EXCLUDED.name,
         updated_at = now()
       WHERE (sports.provider_id, sports.name) IS DISTINCT FROM (EXCLUDED.provider_id, EXCLUDED.name)
       RETURNING id`,
      [sport.key, sport.id, sport.name],
    );
    if (rows[0]) return { value: rows[0].id, changed: true };
    const existing = await this.db.query<Array<{ id: number }>>(
      'SELECT id FROM fixtures.sports WHERE provider_key = $1',
      [sport.key],
    );
    return { value: existing[0].id, changed: false };
  }

  /** Our ids for the sport's leagues, by provider id. */
  async upsertLeagues(
    sportId: number,
    leagues: readonly UpstreamLeague[],
  ): Promise<Written<Map<string, number>>> {
    if (leagues.length === 0) return { value: new Map(), changed: false };
    const rows = await this.db.query<Array<{ id: number; provider_id: string; written: boolean }>>(
      `WITH input AS (
         SELECT * FROM json_to_recordset($2::json) AS r(provider_id text, name text)
       ), written AS (
         INSERT INTO fixtures.leagues (provider_id, sport_id, name)
         SELECT provider_id, $1, name FROM input
         ON CONFLICT (provider_id) DO UPDATE SET sport_id = EXCLUDED.sport_id, name = EXCLUDED.name,
           updated_at = now()
         WHERE (leagues.sport_id, leagues.name) IS DISTINCT FROM (EXCLUDED.sport_id, EXCLUDED.name)
         RETURNING id, provider_id
       )
       SELECT id, provider_id, true AS written FROM written
       UNION ALL
       SELECT l.id, l.provider_id, false FROM fixtures.leagues l JOIN input i ON i.provider_id = l.provider_id
       WHERE l.provider_id NOT IN (SELECT provider_id FROM written)`,
      [sportId, JSON.stringify(dedupe(leagues).map((l) => ({ provider_id: l.id, name: l.name })))],
    );
    return {
      value: new Map(rows.map((row) => [row.provider_id, row.id])),
      changed: rows.some((row) => row.written),
    };
  }

  /** Stores the league's teams (before its matches, which take their names from them); true if any row was written. */
  async upsertTeams(leagueId: number, teams: readonly UpstreamTeam[]): Promise<boolean> {
    const unique = dedupe(teams);
    if (unique.length === 0) return false;
    const input = JSON.stringify(
      unique.map((t) => ({ id: teamIdFor(t.id), provider_id: t.id, name: t.name })),
    );
    const written = await this.db.query<unknown[]>(
      `INSERT INTO fixtures.teams (id, provider_id, name)
       SELECT id, provider_id, name FROM json_to_recordset($1::json) AS r(id text, provider_id text, name text)
       ON CONFLICT (provider_id) DO UPDATE SET name = EXCLUDED.name, updated_at = now()
       WHERE teams.name IS DISTINCT FROM EXCLUDED.name
       RETURNING 1`,
      [input],
    );
    const linked = await this.db.query<unknown[]>(
      `INSERT INTO fixtures.league_teams (league_id, team_id)
       SELECT $1, id FROM json_to_recordset($2::json) AS r(id text)
       ON CONFLICT DO NOTHING
       RETURNING 1`,
      [leagueId, input],
    );
    return written.length > 0 || linked.length > 0;
  }

  /**
   * Stores the league's matches. The catalog status moves only when the
   * provider's status differs from the previous poll's (a repeated status
   * changes nothing, so a newer live-state status stands); suspended,
   * postponed and cancelled hide the match without touching its status.
   * True if any row was written.
   */
  async upsertMatches(
    sportId: number,
    leagueId: number,
    matches: readonly UpstreamMatch[],
  ): Promise<boolean> {
    const rows = dedupe(matches).map((match) => {
      const status = catalogStatusFromProvider(match.status);
      return {
        provider_id: match.id,
        stat_id: match.stat_id,
        live_id: match.live_id,
        home_team_id: teamIdFor(match.home_team_id),
        away_team_id: teamIdFor(match.away_team_id),
        start_time: match.start_time,
        format: match.format,
        provider_status: match.status,
        status: status === 'hidden' ? null : status,
      };
    });
    let changed = false;
    for (let start = 0; start < rows.length; start += MATCH_BATCH) {
      const written = await this.db.query<unknown[]>(
        `INSERT INTO fixtures.matches (provider_id, league_id, sport_id, stat_id, live_id, home_team_id,
           away_team_id, home_team, away_team, start_time, format, provider_status, status, hidden)
         SELECT r.provider_id, $1, $2, r.stat_id, r.live_id, r.home_team_id, r.away_team_id,
           COALESCE(home.name, ''), COALESCE(away.name, ''), r.start_time, r.format, r.provider_status,
           COALESCE(r.status, 'NOT_STARTED'), r.status IS NULL
         FROM json_to_recordset($3::json) AS r(provider_id text, stat_id text, live_id text, home_team_id text,
           away_team_id text, start_time timestamptz, format text, provider_status text, status text)
         LEFT JOIN fixtures.teams home ON home.id = r.home_team_id
         LEFT JOIN fixtures.teams away ON away.id = r.away_team_id
         ON CONFLICT (provider_id) DO UPDATE SET
           league_id = EXCLUDED.league_id, sport_id = EXCLUDED.sport_id, stat_id = EXCLUDED.stat_id,
           live_id = EXCLUDED.live_id, home_team_id = EXCLUDED.home_team_id, away_team_id = EXCLUDED.away_team_id,
           home_team = EXCLUDED.home_team, away_team = EXCLUDED.away_team, start_time = EXCLUDED.start_time,
           format = EXCLUDED.format, provider_status = EXCLUDED.provider_status,
           status = CASE WHEN matches.provider_status IS DISTINCT FROM EXCLUDED.provider_status
             AND NOT EXCLUDED.hidden THEN EXCLUDED.status ELSE matches.status END,
           hidden = CASE WHEN matches.provider_status IS DISTINCT FROM EXCLUDED.provider_status
             THEN EXCLUDED.hidden ELSE matches.hidden END,
           updated_at = now()
         WHERE (matches.league_id, matches.sport_id, matches.stat_id, matches.live_id, matches.home_team_id,
           matches.away_team_id, matches.home_team, matches.away_team, matches.start_time, matches.format,
           matches.provider_status)
           IS DISTINCT FROM (EXCLUDED.league_id, EXCLUDED.sport_id, EXCLUDED.stat_id, EXCLUDED.live_id,
           EXCLUDED.home_team_id, EXCLUDED.away_team_id, EXCLUDED.home_team, EXCLUDED.away_team,
           EXCLUDED.start_time, EXCLUDED.format, EXCLUDED.provider_status)
         RETURNING 1`,
        [leagueId, sportId, JSON.stringify(rows.slice(start, start + MATCH_BATCH))],
      );
      if (written.length > 0) changed = true;
    }
    return changed;
  }

  /** Teams whose kit is still unknown, with their provider ids. */
  unresolvedKits(): Promise<Array<{ id: string; provider_id: string }>> {
    return this.db.query(`SELECT id, provider_id FROM fixtures.teams WHERE silk_url = ''`);
  }

  async teamsByIds(ids: readonly string[]): Promise<Array<{ id: string; provider_id: string }>> {
    if (ids.length === 0) return [];
    return this.db.query(`SELECT id, provider_id FROM fixtures.teams WHERE id = ANY($1) AND silk_url = ''`, [
      ids,
    ]);
  }

  async setKit(teamId: string, url: string): Promise<void> {
    await this.db.query(
      `UPDATE fixtures.teams SET silk_url = $2, kit_attempts = kit_attempts + 1, updated_at = now()
       WHERE id = $1`,
      [teamId, url],
    );
  }
}

/**
 * The provider should not list an id twice; if it does, the last entry wins and
 * the write stays valid. Sorted, so concurrent league writes lock shared team
 * rows in one order and cannot deadlock.
 */
function dedupe<T extends { id: string }>(items: readonly T[]): T[] {
  return [...new Map(items.map((item) => [item.id, item])).values()].sort((a, b) =>
    a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
  );
}
