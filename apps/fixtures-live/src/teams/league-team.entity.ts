import { Entity, PrimaryColumn } from 'typeorm';

/** Which teams the provider lists for a league (a team may play in several). */
@Entity({ schema: 'fixtures', name: 'league_teams' })
export class LeagueTeamEntity {
  @PrimaryColumn('integer', { name: 'league_id' })
  leagueId!: number;

  @PrimaryColumn('text', { name: 'team_id' })
  teamId!: string;
}
