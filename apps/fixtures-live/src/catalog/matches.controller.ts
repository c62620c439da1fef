import { Controller, Get, Header, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal, RequiresScopes } from '@app/auth';
import { pageEnvelope, type PageRequest, resolvePage } from '../common/pagination';
import { PAGE_QUERY_DOCS } from '../common/query/page-query.docs';
import {
  optionalDateTime,
  optionalEnum,
  pageQuery,
  queryId,
  type RawQuery,
} from '../common/query/query-params';
import { CATALOG_STATUSES, type CatalogStatus } from '../live/domain/snapshot.types';
import { LeaguesService } from './leagues.service';
import { visibleMatchOr404 } from './match-access';
import { MatchDto, MatchPageDto } from './match.dto';
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
  @ApiQuery({ name: 'league', type: Number, required: true, description: 'League id.' })
  @ApiQuery({ name: 'status', enum: CATALOG_STATUSES, required: false, description: 'Default: all.' })
  @ApiQuery({
    name: 'start_after',
    type: String,
    required: false,
    description: 'Start time at or after (UTC).',
  })
  @ApiQuery({
    name: 'start_before',
    type: String,
    required: false,
    description: 'Start time at or before (UTC).',
  })
  @PAGE_QUERY_DOCS
  @ApiOkResponse({ type: MatchPageDto })
  @Header('Content-Type', 'application/json; charset=utf-8')
  async list(@Query() query: RawQuery, @CurrentPrincipal() principal: Principal): Promise<string> {
    const leagueId = queryId(query, 'league');
    const status = optionalEnum(query, 'status', CATALOG_STATUSES);
    const startAfter = optionalDateTime(query, 'start_after');
    const startBefore = optionalDateTime(query, 'start_before');
    const page = resolvePage(pageQuery(query));
    return this.pageOf(
      principal,
      leagueId,
      { statuses: status ? [status] : undefined, startAfter, startBefore },
      page,
    );
  }

  @Get('active')
  @ApiOperation({ summary: "A league's NOT_STARTED, STARTED and CLOSE_OF_PLAY matches" })
  @ApiQuery({ name: 'league', type: Number, required: true, description: 'League id.' })
  @PAGE_QUERY_DOCS
  @ApiOkResponse({ type: MatchPageDto })
  @Header('Content-Type', 'application/json; charset=utf-8')
  async active(@Query() query: RawQuery, @CurrentPrincipal() principal: Principal): Promise<string> {
    const leagueId = queryId(query, 'league');
    const page = resolvePage(pageQuery(query));
    return this.pageOf(principal, leagueId, { statuses: UNFINISHED }, page);
  }

  @Get('live')
  @ApiOperation({
    summary: 'Every STARTED match of a sport, plus cricket Tests at CLOSE_OF_PLAY (not paginated)',
    description: "A sport outside the key's allowlist gives an empty array.",
  })
  @ApiQuery({ name: 'sport', type: Number, required: true, description: 'Sport id.' })
  @ApiOkResponse({ type: [MatchDto] })
  @Header('Content-Type', 'application/json; charset=utf-8')
  async live(@Query() query: RawQuery, @CurrentPrincipal() principal: Principal): Promise<string> {
    const sportId = queryId(query, 'sport');
    if (sportId === null || !principal.canSeeFixturesSport(sportId)) return '[]';
    return this.matches.liveJson(sportId);
  }

  @Get(':match_id')
  @ApiOperation({ summary: 'One match' })
  @ApiParam({ name: 'match_id', type: Number })
  @ApiOkResponse({ type: MatchDto })
  async one(@Param('match_id') rawId: string, @CurrentPrincipal() principal: Principal): Promise<MatchDto> {
    const { id, home_team, away_team, start_time, status } = await visibleMatchOr404(
      this.matches,
      principal,
      rawId,
    );
    return { id, home_team, away_team, start_time, status };
  }

  private async pageOf(
    principal: Principal,
    leagueId: number | null,
    filter: Omit<MatchFilter, 'leagueId'>,
    page: PageRequest,
  ): Promise<string> {
    const sportId = leagueId === null ? null : await this.leagues.sportOf(leagueId);
    if (leagueId === null || sportId === null || !principal.canSeeFixturesSport(sportId)) {
      return JSON.stringify(pageEnvelope([], 0, page.limit, page.offset));
    }
    return this.matches.pageJson({ leagueId, ...filter }, page);
  }
}
