import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Clock } from '@app/clock';
import type { PreparedJson } from '@app/http-edge';
import { NatsEventClient, Subjects } from '@app/messaging';
import { type PageEnvelope, type PageRequest, pageEnvelope } from '../common/pagination';
import { CatalogReadCache } from '../catalog/catalog-read-cache';
import type { TeamDto } from './team.dto';

/** A team reported as unresolved is not reported again by this process within this window. */
const REPORT_AGAIN_AFTER_MS = 5000;

@Injectable()
export class TeamsService {
  private reported = new Set<string>();
  private reportedSince = 0;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly events: NatsEventClient,
    private readonly cache: CatalogReadCache,
    private readonly clock: Clock,
  ) {}

  /**
   * One page of a league's teams by name, then id. Teams still without a kit
   * are handed to the ingest over NATS, fire and forget: the answer never
   * waits for the slow kit endpoint.
   */
  async pageJson(leagueId: number, page: PageRequest): Promise<PreparedJson> {
    const answer = await this.cache.json(`teams:${leagueId}:${page.limit}:${page.offset}`, () =>
      this.loadPage(leagueId, page),
    );
    this.reportUnresolved(answer.value.items);
    return answer.json;
  }

  private reportUnresolved(teams: readonly TeamDto[]): void {
    const now = this.clock.now();
    if (now - this.reportedSince >= REPORT_AGAIN_AFTER_MS || now < this.reportedSince) {
      this.reported = new Set();
      this.reportedSince = now;
    }
    const unresolved = teams.filter((team) => team.silk_url === '' && !this.reported.has(team.id));
    if (unresolved.length === 0) return;
    for (const team of unresolved) this.reported.add(team.id);
    void this.events.emitEvent(Subjects.fixturesKitsWanted, { teamIds: unresolved.map((team) => team.id) });
  }

  private async loadPage(leagueId: number, page: PageRequest): Promise<PageEnvelope<TeamDto>> {
    const [rows, counted] = await Promise.all([
      this.db.query<TeamDto[]>(
        `SELECT t.id, t.name, t.silk_url FROM fixtures.league_teams lt
         JOIN fixtures.teams t ON t.id = lt.team_id
         WHERE lt.league_id = $1 ORDER BY t.name, t.id LIMIT $2 OFFSET $3`,
        [leagueId, page.limit, page.offset],
      ),
      this.db.query<Array<{ total: number }>>(
        'SELECT count(*)::int AS total FROM fixtures.league_teams WHERE league_id = $1',
        [leagueId],
      ),
    ]);
    return pageEnvelope(rows, counted[0]?.total ?? 0, page.limit, page.offset);
  }
}
