import { Controller, Get, Header, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { PreparedJson } from '@app/http-edge';
import { CurrentPrincipal, type Principal, RequiresScopes } from '@app/auth';
import { LeaguesService } from '../catalog/leagues.service';
import { LeaguePageQueryDto } from '../catalog/matches.query.dto';
import { pageEnvelope, resolvePage } from '../common/pagination';
import { TeamPageDto } from './team.dto';
import { TeamsService } from './teams.service';

@ApiTags('catalog')
@ApiSecurity('api-key')
@Controller('teams')
@RequiresScopes('fixtures')
export class TeamsController {
  constructor(
    private readonly teams: TeamsService,
    private readonly leagues: LeaguesService,
  ) {}

  @Get()
  @ApiOperation({
    summary: "A league's teams by name, then id",
    description:
      'A league outside the allowlist gives an empty page. `silk_url` is empty until the kit is resolved in ' +
      'the background; a later request shows it.',
  })
  @ApiOkResponse({ type: TeamPageDto })
  @Header('Content-Type', 'application/json; charset=utf-8')
  async list(
    @Query() query: LeaguePageQueryDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<PreparedJson | string> {
    const { league: leagueId } = query;
    const page = resolvePage(query);
    const sportId = leagueId === null ? null : await this.leagues.sportOf(leagueId);
    if (leagueId === null || sportId === null || !principal.canSeeFixturesSport(sportId)) {
      return JSON.stringify(pageEnvelope([], 0, page.limit, page.offset));
    }
    return this.teams.pageJson(leagueId, page);
  }
}
