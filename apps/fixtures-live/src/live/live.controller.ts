import { Controller, Get, NotFoundException, Param } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiSecurity,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { CurrentPrincipal, type Principal, RequiresAnyScope } from '@app/auth';
import { Clock } from '@app/clock';
import { visibleMatchOr404 } from '../catalog/match-access';
import { MatchPathDto } from '../catalog/match-path.dto';
import { MatchesService } from '../catalog/matches.service';
import { type LiveSnapshot, projectClock } from './domain';
import { CricketSnapshotDoc, SoccerSnapshotDoc } from './live-snapshot.docs';
import { LiveSnapshotsService } from './live-snapshots.service';

@ApiTags('live')
@ApiSecurity('api-key')
@Controller('matches')
export class LiveController {
  constructor(
    private readonly matches: MatchesService,
    private readonly snapshots: LiveSnapshotsService,
    private readonly clock: Clock,
  ) {}

  @Get(':match_id/live')
  @RequiresAnyScope('live_scores', 'live_scores_statistics')
  @ApiOperation({
    summary: 'The latest live snapshot of a match',
    description:
      'Branch on `sport`. While the soccer clock runs, minute:second are projected to the moment of the ' +
      'response and `clock.as_of` is that moment. `match_id` is not included. The last state stays ' +
      'available after the match ends; 404 before the match has gone live.',
  })
  @ApiExtraModels(SoccerSnapshotDoc, CricketSnapshotDoc)
  @ApiOkResponse({
    schema: {
      oneOf: [{ $ref: getSchemaPath(SoccerSnapshotDoc) }, { $ref: getSchemaPath(CricketSnapshotDoc) }],
    },
  })
  async live(@Param() path: MatchPathDto, @CurrentPrincipal() principal: Principal): Promise<LiveSnapshot> {
    const match = await visibleMatchOr404(this.matches, principal, path.match_id);
    const snapshot = await this.snapshots.snapshot(match.id);
    if (!snapshot) throw new NotFoundException('no live state yet for this match');
    return projectClock(snapshot, this.clock.date());
  }
}
