import { ApiProperty } from '@nestjs/swagger';
import { PageDto } from '../common/page.dto';

export class LeagueDto {
  @ApiProperty({ description: 'Our stable league id; the `league` parameter of /matches and /teams.' })
  readonly id!: number;

  @ApiProperty({ description: 'Display name.' })
  readonly name!: string;
}

export class LeaguePageDto extends PageDto {
  @ApiProperty({ type: [LeagueDto] })
  readonly items!: LeagueDto[];
}
