import { ApiProperty } from '@nestjs/swagger';

/** The fields every paginated answer carries besides `items` (documentation only). */
export class PageDto {
  @ApiProperty({ description: 'All records matching the query.' })
  readonly total!: number;

  @ApiProperty({ description: 'Page size used, after clamping to 200.' })
  readonly limit!: number;

  @ApiProperty({ description: 'Records skipped.' })
  readonly offset!: number;

  @ApiProperty({ description: 'Records in this page.' })
  readonly count!: number;

  @ApiProperty({ description: '1-based page number for this offset and limit.' })
  readonly page!: number;

  @ApiProperty({ description: 'Pages at the current limit.' })
  readonly total_pages!: number;

  @ApiProperty({
    description: 'True when records exist beyond this page: add limit to offset and ask again.',
  })
  readonly has_more!: boolean;
}
