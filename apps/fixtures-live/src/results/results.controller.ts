import { Controller, Get, NotFoundException, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal, RequiresScopes } from '@app/auth';
import { visibleMatchOr404 } from '../catalog/match-access';
import { MatchPathDto } from '../catalog/match-path.dto';
import { MatchesService } from '../catalog/matches.service';
import { ResultDoc } from '../live/live-snapshot.docs';
import { type MatchResult, ResultsService } from './results.service';

@ApiTags('results')
@ApiSecurity('api-key')
@Controller('matches')
export class ResultsController {
  constructor(
    private readonly matches: MatchesService,
    private readonly results: ResultsService,
  ) {}

  @Get(':match_id/result')
  @RequiresScopes('final_scores')
  @ApiOperation({
    summary: 'The frozen half-time and full-time snapshots of a match',
    description: '404 until at least one of them has been recorded.',
  })
  @ApiOkResponse({ type: ResultDoc })
  async result(@Param() path: MatchPathDto, @CurrentPrincipal() principal: Principal): Promise<MatchResult> {
    const match = await visibleMatchOr404(this.matches, principal, path.match_id);
    const result = await this.results.find(match.id);
    if (!result) throw new NotFoundException('no result yet for this match');
    return result;
  }
}
