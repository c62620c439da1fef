import { Controller, Get, Header, Query, UseInterceptors } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { PreparedJson } from '@app/http-edge';
import { AnswerReplayInterceptor, CurrentPrincipal, type Principal, RequiresScopes } from '@app/auth';
import { pageEnvelope, resolvePage } from '../common/pagination';
import { LeaguePageDto } from './league.dto';
import { SportPageQueryDto } from './leagues.query.dto';
import { LeaguesService } from './leagues.service';

@ApiTags('catalog')
@ApiSecurity('api-key')
@Controller('leagues')
@RequiresScopes('fixtures')
export class LeaguesController {
  constructor(private readonly leagues: LeaguesService) {}

  @Get()
  @ApiOperation({ summary: "A sport's leagues, by id" })
  @ApiOkResponse({ type: LeaguePageDto })
  @Header('Content-Type', 'application/json; charset=utf-8')
  @UseInterceptors(AnswerReplayInterceptor)
  list(
    @Query() query: SportPageQueryDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<PreparedJson | string> {
    return this.answer(query, principal, false);
  }

  @Get('active')
  @ApiOperation({ summary: 'Leagues with at least one NOT_STARTED, STARTED or CLOSE_OF_PLAY match, by id' })
  @ApiOkResponse({ type: LeaguePageDto })
  @Header('Content-Type', 'application/json; charset=utf-8')
  @UseInterceptors(AnswerReplayInterceptor)
  active(
    @Query() query: SportPageQueryDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<PreparedJson | string> {
    return this.answer(query, principal, true);
  }

  private async answer(
    query: SportPageQueryDto,
    principal: Principal,
    activeOnly: boolean,
  ): Promise<PreparedJson | string> {
    const { sport: sportId } = query;
    const page = resolvePage(query);
    if (sportId === null || !principal.canSeeFixturesSport(sportId))
      return JSON.stringify(pageEnvelope([], 0, page.limit, page.offset));
    return this.leagues.pageJson(sportId, activeOnly, page);
  }
}
