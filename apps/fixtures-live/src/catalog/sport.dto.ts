import { ApiProperty } from '@nestjs/swagger';

export class SportDto {
  @ApiProperty({ description: 'Our stable sport id; the `sport` parameter of /leagues and /matches/live.' })
  readonly id!: number;

  @ApiProperty()
  readonly name!: string;
}
