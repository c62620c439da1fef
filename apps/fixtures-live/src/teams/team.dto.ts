import { ApiProperty } from '@nestjs/swagger';
import { PageDto } from '../common/page.dto';

export class TeamDto {
  @ApiProperty({ description: 'Opaque team id: compare for equality only, never parse or sort.' })
  readonly id!: string;

  @ApiProperty()
  readonly name!: string;

  @ApiProperty({
    description:
      'Public URL of the kit thumbnail; an empty string until it has been resolved (ask again later).',
  })
  readonly silk_url!: string;
}

export class TeamPageDto extends PageDto {
  @ApiProperty({ type: [TeamDto] })
  readonly items!: TeamDto[];
}
