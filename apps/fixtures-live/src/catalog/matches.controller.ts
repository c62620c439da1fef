import { Controller, Get, Header, Param, Query, UseInterceptors } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { PreparedJson } from '@app/http-edge';
import { AnswerReplayInterceptor, CurrentPrincipal, type Principal, RequiresScopes } from '@app/auth';
import { pageEnvelope, type PageRequest, resolvePage } from '../common/pagination';
import type { CatalogStatus } from '../live/domain/snapshot.types';
import { LeaguesService } from './leagues.service';
import { visibleMatchOr404 } from './match-access';
import { MatchPathDto } from './match-path.dto';
import { MatchDto, MatchPageDto } from './match.dto';
import { LeaguePageQueryDto, LiveMatchesQueryDto, MatchListQueryDto } from './matches.query.dto';
import { type MatchFilter, MatchesService } from './matches.service';

const UNFINISHED: readonly CatalogStatus[] = ['NOT_STARTED', 'STARTED', 'CLOSE_OF_PLAY'];

// The fixed routes (`active`, `live`) are declared before `:match_id` so they win.
@ApiTags('catalog')
@ApiSecurity('api-key')
@Controller('matches')
@RequiresScopes('fixtures')
export class MatchesController {
  constructor(
    private readonly matches: MatchesService,
    private readonly leagues: LeaguesService,
  ) {}

  @Get()
  @ApiOperation({ summary: "A league's matches by start time, then id" })
  @ApiOkResponse({ type: MatchPageDto })
  @Header('Content-Type', 'application/json; charset=utf-8')
  @UseInterceptors(AnswerReplayInterceptor)
  async list(
    @Query() query: MatchListQueryDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<PreparedJson | string> {
    const { league, status, start_after: startAfter, start_before: startBefore } = query;
    return this.pageOf(
      principal,
      league,
      { statuses: status ? [status] : undefined, startAfter, startBefore },
      resolvePage(query),
    );
  }

  @Get('active')
  @ApiOperation({ summary: "A league's NOT_STARTED, STARTED and CLOSE_OF_PLAY matches" })
  @ApiOkResponse({ type: MatchPageDto })
  @Header('Content-Type', 'application/json; charset=utf-8')
  @UseInterceptors(AnswerReplayInterceptor)
  async active(
    @Query() query: LeaguePageQueryDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<PreparedJson | string> {
    return this.pageOf(principal, query.league, { statuses: UNFINISHED }, resolvePage(query));
  }

  @Get('live')
  @ApiOperation({
    summary: 'Every STARTED match of a sport, plus cricket Tests at CLOSE_OF_PLAY (not paginated)',
    description: "A sport outside the key's allowlist gives an empty array.",
  })
  @ApiOkResponse({ type: [MatchDto] })
  @Header('Content-Type', 'application/json; charset=utf-8')
  @UseInterceptors(AnswerReplayInterceptor)
  async live(
    @Query() query: LiveMatchesQueryDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<PreparedJson | string> {
    const { sport: sportId } = query;
    if (sportId === null || !principal.canSeeFixturesSport(sportId)) return '[]';
    return this.matches.liveJson(sportId);
  }

  @Get(':match_id')
  @ApiOperation({ summary: 'One match' })
  @ApiOkResponse({ type: MatchDto })
  async one(@Param() path: MatchPathDto, @CurrentPrincipal() principal: Principal): Promise<MatchDto> {
    const { id, home_team, away_team, start_time, status } = await visibleMatchOr404(
      this.matches,
      principal,
      path.match_id,
    );
    return { id, home_team, away_team, start_time, status };
  }

  private async pageOf(
    principal: Principal,
    leagueId: number | null,
    filter: Omit<MatchFilter, 'leagueId'>,
    page: PageRequest,
  ): Promise<PreparedJson | string> {
    const sportId = leagueId === null ? null : await this.leagues.sportOf(leagueId);
    if (leagueId === null || sportId === null || !principal.canSeeFixturesSport(sportId)) {
      return JSON.stringify(pageEnvelope([], 0, page.limit, page.offset));
    }
    return this.matches.pageJson({ leagueId, ...filter }, page);
  }
}
