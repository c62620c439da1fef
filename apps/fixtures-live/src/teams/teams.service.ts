import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { NatsClient, Subjects } from '@app/messaging';
import { type PageEnvelope, type PageRequest, pageEnvelope } from '../common/pagination';
import type { TeamDto } from './team.dto';

@Injectable()
export class TeamsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly nats: NatsClient,
  ) {}

  /**
   * One page of a league's teams by name, then id. Teams still without a kit
   * are handed to the ingest over NATS, fire and forget: the answer never
   * waits for the slow kit endpoint.
   */
  async page(leagueId: number, page: PageRequest): Promise<PageEnvelope<TeamDto>> {
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
    const unresolved = rows.filter((team) => team.silk_url === '').map((team) => team.id);
    if (unresolved.length > 0) this.nats.publish(Subjects.fixturesKitsWanted, { teamIds: unresolved });
    return pageEnvelope(rows, counted[0]?.total ?? 0, page.limit, page.offset);
  }
}
