import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/*
 * OpenAPI descriptions of the public snapshots. The TypeScript shapes live in
 * ./domain/snapshot.types.ts; these classes only document them.
 */

class HomeAwayNumber {
  @ApiProperty() home!: number;
  @ApiProperty() away!: number;
}

class HomeAwayText {
  @ApiProperty() home!: string;
  @ApiProperty() away!: string;
}

class ProviderRefDoc {
  @ApiProperty({ description: 'Provider statistics id; always present.' }) stat_id!: string;
  @ApiPropertyOptional() live_id?: string;
  @ApiPropertyOptional({ description: "The provider's match id." }) fixture_id?: string;
}

class SoccerClockDoc {
  @ApiProperty() minute!: number;
  @ApiProperty() second!: number;
  @ApiProperty({ description: '1H, HT, 2H, FT and similar codes.' }) period!: string;
  @ApiProperty({ description: 'True while the clock ticks.' }) running!: boolean;
  @ApiProperty({ description: 'Stoppage minutes announced.' }) added!: number;
  @ApiPropertyOptional({ description: 'Wall time minute:second corresponds to; absent before kick-off.' })
  as_of?: string;
}

class SoccerScoreDoc extends HomeAwayNumber {
  @ApiPropertyOptional({ type: HomeAwayNumber, description: 'Penalty shootout tally, once it has begun.' })
  shootout?: HomeAwayNumber;
}

class SoccerPhaseDoc {
  @ApiProperty({ enum: ['home', 'away', ''] }) team!: string;
  @ApiProperty({ description: 'Stable decoded code (kickoff, attack, dangerous_attack, ..., other).' })
  code!: string;
  @ApiProperty({ description: 'Display text; may be refined over time, match on `code`.' }) label!: string;
  @ApiProperty({ description: 'Raw provider code.' }) vc!: number;
}

class SoccerEventDoc {
  @ApiProperty() minute!: string;
  @ApiProperty({
    enum: ['goal', 'corner', 'yellow_card', 'red_card', 'penalty', 'substitution', 'shootout', 'event'],
  })
  type!: string;
  @ApiProperty({ enum: ['home', 'away'] }) team!: string;
  @ApiProperty({ example: 'Goal - Saka' }) label!: string;
  @ApiPropertyOptional({ description: 'home-away after a goal.', example: '1-0' }) score?: string;
}

class SoccerBallDoc {
  @ApiProperty({ description: '0 to 1.' }) x!: number;
  @ApiProperty({ description: '0 to 1.' }) y!: number;
  @ApiProperty({ description: 'Decoded phase code of the position.' }) event!: string;
  @ApiPropertyOptional({ description: 'Only when anchored to a notable event.' }) minute?: string;
  @ApiPropertyOptional({ description: 'Only when anchored to a notable event.' }) detail?: string;
}

export class SoccerSnapshotDoc {
  @ApiProperty({ enum: [1], description: 'Schema version.' }) v!: number;
  @ApiPropertyOptional({ description: 'Present on stream frames only.' }) match_id?: number;
  @ApiProperty({ type: ProviderRefDoc }) provider!: ProviderRefDoc;
  @ApiProperty({ enum: ['soccer'] }) sport!: string;
  @ApiProperty() competition!: string;
  @ApiProperty() home!: string;
  @ApiProperty() away!: string;
  @ApiProperty({ enum: ['not_started', 'live', 'ht', 'et', 'shootout', 'ft'] }) status!: string;
  @ApiProperty({ type: SoccerClockDoc }) clock!: SoccerClockDoc;
  @ApiProperty({ type: SoccerScoreDoc }) score!: SoccerScoreDoc;
  @ApiProperty({ type: SoccerPhaseDoc }) phase!: SoccerPhaseDoc;
  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: '#/components/schemas/HomeAwayNumber' },
    description:
      'shots_on_target, shots_off_target, attacks, dangerous_attacks, possession, corners, yellow_cards, ' +
      'red_cards, each {home, away}.',
  })
  stats!: Record<string, HomeAwayNumber>;
  @ApiProperty({ type: [SoccerEventDoc], nullable: true, description: 'Null while there are none.' })
  events!: SoccerEventDoc[] | null;
  @ApiPropertyOptional({ type: SoccerBallDoc }) ball?: SoccerBallDoc;
  @ApiPropertyOptional({ type: HomeAwayNumber, description: 'Expected goals so far per team (fractional).' })
  xg?: HomeAwayNumber;
  @ApiPropertyOptional({
    type: [Number],
    description: 'Momentum per minute played, each in [-1, 1]; positive means the home team presses.',
  })
  pressure?: number[];
  @ApiPropertyOptional({
    type: HomeAwayText,
    description: 'Recent form per team, most recent last (W, D, L), such as "WWDLW".',
  })
  form?: HomeAwayText;
  @ApiProperty({ description: 'When the snapshot was produced.' }) updated_at!: string;
}

class CricketScoreDoc {
  @ApiProperty() runs!: number;
  @ApiProperty({ description: '10 for an all-out innings.' }) wickets!: number;
  @ApiProperty({ example: '61.2' }) overs!: string;
  @ApiProperty({ example: '245/6 (61.2)' }) raw!: string;
}

class CricketOverDoc {
  @ApiProperty({ description: '1-based.' }) over!: number;
  @ApiProperty() ball!: number;
  @ApiProperty({ type: [String], description: 'Runs, W for a wicket, and so on.' }) this_over!: string[];
}

class CricketBatsmanDoc {
  @ApiProperty() name!: string;
  @ApiProperty() runs!: number;
  @ApiProperty() balls!: number;
  @ApiPropertyOptional({ description: 'True on the striker only; omitted on the other batsman.' })
  on_strike?: boolean;
}

class CricketBowlerDoc {
  @ApiProperty() name!: string;
  @ApiProperty() overs!: string;
  @ApiProperty() maidens!: number;
  @ApiProperty() runs!: number;
  @ApiProperty() wickets!: number;
}

class CricketLastEventDoc {
  @ApiProperty() vc!: number;
  @ApiProperty({ enum: ['home', 'away', ''] }) team!: string;
  @ApiProperty({ description: 'runs, four, six, bye, wide, wicket, bowled, lbw, ..., other.' }) code!: string;
  @ApiProperty() label!: string;
}

export class CricketSnapshotDoc {
  @ApiPropertyOptional({ description: 'Present on stream frames only.' }) match_id?: number;
  @ApiProperty({ enum: ['cricket'] }) sport!: string;
  @ApiProperty() competition!: string;
  @ApiProperty() home!: string;
  @ApiProperty() away!: string;
  @ApiProperty({
    enum: ['not_started', 'live', 'innings_break', 'stopped', 'ended'],
    description: 'stopped covers rain, bad light, lunch, tea, drinks and stumps.',
  })
  status!: string;
  @ApiProperty({ enum: ['test', 't20', 'one_day', 'the_hundred', 'limited_overs'] }) match_type!: string;
  @ApiProperty() innings!: number;
  @ApiProperty({ enum: ['home', 'away'] }) batting!: string;
  @ApiProperty({ type: CricketScoreDoc }) score!: CricketScoreDoc;
  @ApiPropertyOptional({ description: 'Raw score string, may include earlier innings.' }) set_score?: string;
  @ApiProperty({ type: CricketOverDoc }) over!: CricketOverDoc;
  @ApiProperty({ type: [CricketBatsmanDoc] }) batsmen!: CricketBatsmanDoc[];
  @ApiProperty({ type: CricketBowlerDoc }) bowler!: CricketBowlerDoc;
  @ApiPropertyOptional({ type: CricketLastEventDoc }) last_event?: CricketLastEventDoc;
  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'object' },
    description: 'Every innings in order, each with its batting team, runs, wickets and overs.',
  })
  scorecard?: object[];
  @ApiProperty({ description: 'When the snapshot was produced.' }) t!: string;
}

export class ResultDoc {
  @ApiProperty({
    nullable: true,
    oneOf: [
      { $ref: '#/components/schemas/SoccerSnapshotDoc' },
      { $ref: '#/components/schemas/CricketSnapshotDoc' },
    ],
    description:
      'Frozen once at half time (soccer: status ht, without events; cricket: first innings break of a ' +
      'limited-overs match); null when not captured. Never changes afterwards.',
  })
  half_time!: object | null;

  @ApiProperty({
    nullable: true,
    oneOf: [
      { $ref: '#/components/schemas/SoccerSnapshotDoc' },
      { $ref: '#/components/schemas/CricketSnapshotDoc' },
    ],
    description: 'Frozen once at full time (status ft with every event, or ended); null until finished.',
  })
  full_time!: object | null;
}
