import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { PreparedJson } from '@app/http-edge';
import { type PageEnvelope, type PageRequest, pageEnvelope } from '../common/pagination';
import { CatalogReadCache } from './catalog-read-cache';
import type { LeagueDto } from './league.dto';

/** Leagues with at least one match that is not finished and not hidden. */
const ACTIVE = `EXISTS (
  SELECT 1 FROM fixtures.matches m
  WHERE m.league_id = l.id AND NOT m.hidden AND m.status IN ('NOT_STARTED', 'STARTED', 'CLOSE_OF_PLAY')
)`;

@Injectable()
export class LeaguesService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly cache: CatalogReadCache,
  ) {}

  /** One page of the sport's leagues by id, as JSON; `activeOnly` keeps leagues with an unfinished match. */
  async pageJson(sportId: number, activeOnly: boolean, page: PageRequest): Promise<PreparedJson> {
    const key = `leagues:${sportId}:${activeOnly}:${page.limit}:${page.offset}`;
    return (await this.cache.json(key, () => this.loadPage(sportId, activeOnly, page))).json;
  }

  /** The sport of a league, or null when there is no such league. */
  sportOf(leagueId: number): Promise<number | null> {
    return this.cache.get(`league-sport:${leagueId}`, () => this.loadSportOf(leagueId));
  }

  private async loadPage(
    sportId: number,
    activeOnly: boolean,
    page: PageRequest,
  ): Promise<PageEnvelope<LeagueDto>> {
    const where = `l.sport_id = $1${activeOnly ? ` AND ${ACTIVE}` : ''}`;
    const [rows, counted] = await Promise.all([
      this.db.query<LeagueDto[]>(
        `SELECT l.id, l.name FROM fixtures.leagues l WHERE ${where} ORDER BY l.id LIMIT $2 OFFSET $3`,
        [sportId, page.limit, page.offset],
      ),
      this.db.query<Array<{ total: number }>>(
        `SELECT count(*)::int AS total FROM fixtures.leagues l WHERE ${where}`,
        [sportId],
      ),
    ]);
    return pageEnvelope(rows, counted[0]?.total ?? 0, page.limit, page.offset);
  }

  private async loadSportOf(leagueId: number): Promise<number | null> {
    const rows = await this.db.query<Array<{ sport_id: number }>>(
      'SELECT sport_id FROM fixtures.leagues WHERE id = $1',
      [leagueId],
    );
    return rows[0]?.sport_id ?? null;
  }
}
