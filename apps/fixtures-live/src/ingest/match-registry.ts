import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { CricketFormat } from '../upstream/livescores.types';

/** What the live ingest needs to know about a catalog match. */
export interface KnownMatch {
  readonly id: number;
  readonly sportId: number;
  readonly providerId: string;
  readonly statId: string;
  readonly liveId: string | null;
  readonly homeTeam: string;
  readonly awayTeam: string;
  readonly leagueName: string;
  readonly format: CricketFormat | null;
  readonly hidden: boolean;
}

/**
 * The catalog as the live ingest sees it, keyed by the live stream's
 * `stat_id`, reloaded from PostgreSQL after every catalog poll (and at start,
 * so live states are applied before the provider's catalog answers).
 */
@Injectable()
export class MatchRegistry {
  private byStatId = new Map<string, KnownMatch>();

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  get size(): number {
    return this.byStatId.size;
  }

  find(statId: string): KnownMatch | undefined {
    return this.byStatId.get(statId);
  }

  async reload(): Promise<void> {
    const rows = await this.db.query<
      Array<{
        id: number;
        sport_id: number;
        provider_id: string;
        stat_id: string;
        live_id: string | null;
        home_team: string;
        away_team: string;
        league_name: string;
        format: CricketFormat | null;
        hidden: boolean;
      }>
    >(
      // Newest row last, so if the provider ever reused a stat_id the current match wins.
      `SELECT m.id, m.sport_id, m.provider_id, m.stat_id, m.live_id, m.home_team, m.away_team,
         l.name AS league_name, m.format, m.hidden
       FROM fixtures.matches m JOIN fixtures.leagues l ON l.id = m.league_id ORDER BY m.id`,
    );
    const next = new Map<string, KnownMatch>();
    for (const row of rows) {
      next.set(row.stat_id, {
        id: row.id,
        sportId: row.sport_id,
        providerId: row.provider_id,
        statId: row.stat_id,
        liveId: row.live_id,
        homeTeam: row.home_team,
        awayTeam: row.away_team,
        leagueName: row.league_name,
        format: row.format,
        hidden: row.hidden,
      });
    }
    this.byStatId = next;
  }
}
