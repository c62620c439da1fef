import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class SportDto {
  @ApiProperty({ description: "The sportsbook's own sport id.", example: 29 })
  id!: number;

  @ApiProperty({ example: 'Soccer' })
  name!: string;
}

export class LeagueDto {
  @ApiProperty({ example: 1980 })
  id!: number;

  @ApiProperty({ example: 'England - Premier League' })
  name!: string;

  @ApiProperty({ example: 29 })
  sport_id!: number;
}

export class MatchDto {
  @ApiProperty({ example: 1601234567 })
  id!: number;

  @ApiProperty({ example: 29 })
  sport_id!: number;

  @ApiProperty({ example: 1980 })
  league_id!: number;

  @ApiProperty({ type: String, nullable: true, example: 'England - Premier League' })
  league_name!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Home side; null on a special.',
    example: 'Arsenal',
  })
  home!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Away side; null on a special.',
    example: 'Chelsea',
  })
  away!: string | null;

  @ApiProperty({ description: 'Scheduled start, UTC with a Z suffix.', example: '2026-11-21T15:00:00Z' })
  start_time!: string;

  @ApiProperty({ description: 'True for the in-play listing of a fixture.' })
  is_live!: boolean;

  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'On a live match, the prematch match it replaces; otherwise null.',
  })
  parent_id!: number | null;

  @ApiProperty({ description: 'Grows whenever anything in this object changes.' })
  version!: number;

  @ApiPropertyOptional({ description: 'Only on specials: what the special is about.' })
  special?: string;
}

export class SelectionDto {
  @ApiProperty({
    description:
      'Identifies the market, line included. Compare it for equality and key state by it; do not parse it, its format may change.',
    example: 's;0;s;-1.5',
  })
  market_key!: string;

  @ApiProperty({
    description:
      "Period label and market label (a team total names the team; a special uses its own description). Shortly after a cold start the period may read 'Period N' until the book's labels load.",
    example: 'Match - Handicap',
  })
  market_name!: string;

  @ApiProperty({
    description: "The book's period number (0 is the whole match); an identifier, not a counter.",
  })
  period!: number;

  @ApiProperty({
    description: 'The outcome: a team, Draw, Over/Under with the line, a team with its signed line.',
  })
  bet_name!: string;

  @ApiPropertyOptional({
    description: "This outcome's own signed line; absent on money lines.",
    example: -1.5,
  })
  line?: number;

  @ApiProperty({ description: 'American odds as the book publishes them; authoritative.', example: 215 })
  price!: number;

  @ApiProperty({ description: 'Decimal odds derived from price, 3 decimal places.', example: 3.15 })
  decimal!: number;

  @ApiProperty({
    enum: ['unlocked', 'locked'],
    description:
      'Locked when the book closed or suspended the market, or its cutoff has passed (evaluated per response).',
  })
  status!: string;

  @ApiProperty({
    description:
      'Greater for every visible change of this market_key, also across restarts. Ignore a selection whose version is not greater than the one you hold.',
  })
  version!: number;

  @ApiProperty({ description: 'When betting closes, UTC with a Z suffix.', example: '2026-11-21T15:00:00Z' })
  cutoff_at!: string;

  @ApiProperty({ description: 'Largest stake at risk accepted on this market.', example: 5000 })
  limit!: number;
}

export class MatchOddsDto {
  @ApiProperty()
  match_id!: number;

  @ApiProperty()
  sport_id!: number;

  @ApiProperty({ description: 'Epoch milliseconds of the last change applied to the match.' })
  ts!: number;

  @ApiProperty({ type: [SelectionDto] })
  selections!: SelectionDto[];
}

export class ErrorDto {
  @ApiProperty({ example: 'invalid parameter: match' })
  error!: string;
}

export class RouteDto {
  @ApiProperty({ example: 'GET' })
  method!: string;

  @ApiProperty({ example: '/v1/book/sports' })
  path!: string;

  @ApiProperty()
  description!: string;
}

export class RouteListDto {
  @ApiProperty({ example: 'book' })
  book!: string;

  @ApiProperty({ type: [RouteDto] })
  routes!: RouteDto[];
}
