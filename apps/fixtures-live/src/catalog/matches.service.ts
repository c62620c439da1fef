import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { PreparedJson } from '@app/http-edge';
import { LastKnown } from '../common/last-known';
import { type PageEnvelope, type PageRequest, pageEnvelope } from '../common/pagination';
import type { CatalogStatus } from '../live/domain/snapshot.types';
import { CatalogReadCache } from './catalog-read-cache';
import type { MatchDto } from './match.dto';

export interface MatchFilter {
  readonly leagueId: number;
  readonly statuses?: readonly CatalogStatus[];
  readonly startAfter?: Date;
  readonly startBefore?: Date;
}

/** A visible match with the sport it belongs to, for allowlist checks. */
export interface MatchRecord extends MatchDto {
  readonly sport_id: number;
}

/** Match records kept for an outage: every match a request looked at recently, small rows. */
const LAST_KNOWN_MATCHES = 50_000;

const COLUMNS = `m.id, m.home_team, m.away_team,
  to_char(m.start_time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS start_time, m.status`;

@Injectable()
export class MatchesService {
  private readonly lastKnownMatches = new LastKnown<MatchRecord | null>(LAST_KNOWN_MATCHES);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly cache: CatalogReadCache,
  ) {}

  /** One page of a league's visible matches by start time, then id. */
  async pageJson(filter: MatchFilter, page: PageRequest): Promise<PreparedJson> {
    const key = [
      'matches',
      filter.leagueId,
      filter.statuses?.join(',') ?? '',
      filter.startAfter?.toISOString() ?? '',
      filter.startBefore?.toISOString() ?? '',
      page.limit,
      page.offset,
    ].join(':');
    return (await this.cache.json(key, () => this.loadPage(filter, page))).json;
  }

  /** Every visible STARTED or CLOSE_OF_PLAY match of a sport, by start time, then id, as JSON. */
  async liveJson(sportId: number): Promise<PreparedJson> {
    return (await this.cache.json(`matches-live:${sportId}`, () => this.loadLive(sportId))).json;
  }

  private async loadPage(filter: MatchFilter, page: PageRequest): Promise<PageEnvelope<MatchDto>> {
    const conditions = ['m.league_id = $1', 'NOT m.hidden'];
    const params: unknown[] = [filter.leagueId];
    if (filter.statuses) {
      params.push(filter.statuses);
      conditions.push(`m.status = ANY($${params.length})`);
    }
    if (filter.startAfter) {
      params.push(filter.startAfter);
      conditions.push(`m.start_time >= $${params.length}`);
    }
    if (filter.startBefore) {
      params.push(filter.startBefore);
      conditions.push(`m.start_time <= $${params.length}`);
    }
    const where = conditions.join(' AND ');
    const [rows, counted] = await Promise.all([
      this.db.query<MatchDto[]>(
        `SELECT ${COLUMNS} FROM fixtures.matches m WHERE ${where}
         ORDER BY m.start_time, m.id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, page.limit, page.offset],
      ),
      this.db.query<Array<{ total: number }>>(
        `SELECT count(*)::int AS total FROM fixtures.matches m WHERE ${where}`,
        params,
      ),
    ]);
    return pageEnvelope(rows, counted[0]?.total ?? 0, page.limit, page.offset);
  }

  private loadLive(sportId: number): Promise<MatchDto[]> {
    return this.db.query<MatchDto[]>(
      `SELECT ${COLUMNS} FROM fixtures.matches m
       WHERE m.sport_id = $1 AND NOT m.hidden AND m.status IN ('STARTED', 'CLOSE_OF_PLAY')
       ORDER BY m.start_time, m.id`,
      [sportId],
    );
  }

  /** The match unless it is unknown or hidden; while PostgreSQL is away, as last read. */
  findVisible(matchId: number): Promise<MatchRecord | null> {
    return this.lastKnownMatches.read(String(matchId), async () => {
      const rows = await this.db.query<MatchRecord[]>(
        `SELECT ${COLUMNS}, m.sport_id FROM fixtures.matches m WHERE m.id = $1 AND NOT m.hidden`,
        [matchId],
      );
      return rows[0] ?? null;
    });
  }
}
