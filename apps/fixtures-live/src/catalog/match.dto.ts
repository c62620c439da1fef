import { ApiProperty } from '@nestjs/swagger';
import { PageDto } from '../common/page.dto';
import { CATALOG_STATUSES, type CatalogStatus } from '../live/domain/snapshot.types';

export class MatchDto {
  @ApiProperty({ description: 'Our stable match id; the `match_id` of live, result and stream messages.' })
  readonly id!: number;

  @ApiProperty()
  readonly home_team!: string;

  @ApiProperty()
  readonly away_team!: string;

  @ApiProperty({ description: 'Scheduled start, UTC.', example: '2026-11-21T15:00:00Z' })
  readonly start_time!: string;

  @ApiProperty({
    enum: CATALOG_STATUSES,
    description:
      'NOT_STARTED until kick-off; STARTED while in play (half-time included); CLOSE_OF_PLAY for a ' +
      'multi-day Test between days; FINISHED once completed.',
  })
  readonly status!: CatalogStatus;
}

export class MatchPageDto extends PageDto {
  @ApiProperty({ type: [MatchDto] })
  readonly items!: MatchDto[];
}
