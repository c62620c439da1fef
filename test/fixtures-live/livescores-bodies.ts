import type {
  UpstreamCricketState,
  UpstreamSoccerState,
} from '../../apps/fixtures-live/src/upstream/livescores.types';

// Provider bodies as the provider documents them, for the unit tests of the
// parsers and of the snapshot domain. Raw forms are plain JSON values.

export function rawSoccerState(): Record<string, unknown> {
  return {
    sport: 'soccer',
    competition: 'Premier League',
    status: '1h',
    clock: { minute: 23, second: 10, period: '1H', running: true, added: 0, at: '2026-11-21T15:23:10Z' },
    score: { home: 1, away: 0 },
    phase: { vc: 1003, team: 'home' },
    stats: {
      shots_on_target: [3, 1],
      shots_off_target: [2, 2],
      attacks: [31, 22],
      dangerous_attacks: [14, 9],
      possession: [58, 42],
      corners: [4, 1],
      yellow_cards: [1, 2],
      red_cards: [0, 0],
    },
    incidents: [{ vc: 2001, minute: '17', team: 'home', player: 'Saka', score: '1-0' }],
    ball: { x: 0.71, y: 0.38, vc: 1003 },
    extras: { xg: [1.21, 0.34], pressure: [0.2, 0.4, -0.1], form: ['WWDLW', 'LDWWL'] },
  };
}

export function rawCricketState(): Record<string, unknown> {
  return {
    sport: 'cricket',
    competition: 'The Ashes - 2nd Test',
    status: 'live',
    format: 'test',
    innings: 3,
    batting: 'away',
    score: '245/6 (61.2)',
    set_score: '412 & 245/6',
    over: { number: 62, ball: 2, this_over: ['1', '0', 'W'] },
    batsmen: [
      { name: 'Smith', runs: 54, balls: 101, on_strike: true },
      { name: 'Carey', runs: 3, balls: 9 },
    ],
    bowler: { name: 'Anderson', overs: '14.2', maidens: 4, runs: 31, wickets: 2 },
    last_event: { vc: 3008, team: 'away' },
    scorecard: [{ team: 'England', phase: '1st', score: '412 (120.3)', batting: [], bowling: [] }],
    at: '2026-11-21T04:12:33Z',
  };
}

export function rawEnvelope(state: unknown = rawSoccerState()): Record<string, unknown> {
  return { stat_id: 'st-77', seq: 18812, sent_at: '2026-11-21T15:23:11Z', state };
}

/** The contract's soccer example, parsed. */
export function soccerState(overrides: Partial<UpstreamSoccerState> = {}): UpstreamSoccerState {
  return {
    sport: 'soccer',
    competition: 'Premier League',
    status: '1h',
    clock: { minute: 23, second: 10, period: '1H', running: true, added: 0, at: '2026-11-21T15:23:10Z' },
    score: { home: 1, away: 0 },
    phase: { vc: 1003, team: 'home' },
    stats: {
      shots_on_target: [3, 1],
      shots_off_target: [2, 2],
      attacks: [31, 22],
      dangerous_attacks: [14, 9],
      possession: [58, 42],
      corners: [4, 1],
      yellow_cards: [1, 2],
      red_cards: [0, 0],
    },
    incidents: [{ vc: 2001, minute: '17', team: 'home', player: 'Saka', score: '1-0' }],
    ball: { x: 0.71, y: 0.38, vc: 1003 },
    extras: { xg: [1.21, 0.34], pressure: [0.2, 0.4, -0.1], form: ['WWDLW', 'LDWWL'] },
    ...overrides,
  };
}

/** The contract's cricket example, parsed. */
export function cricketState(overrides: Partial<UpstreamCricketState> = {}): UpstreamCricketState {
  return {
    sport: 'cricket',
    competition: 'The Ashes - 2nd Test',
    status: 'live',
    format: 'test',
    innings: 3,
    batting: 'away',
    score: '245/6 (61.2)',
    set_score: '412 & 245/6',
    over: { number: 62, ball: 2, this_over: ['1', '0', 'W'] },
    batsmen: [
      { name: 'Smith', runs: 54, balls: 101, on_strike: true },
      { name: 'Carey', runs: 3, balls: 9 },
    ],
    bowler: { name: 'Anderson', overs: '14.2', maidens: 4, runs: 31, wickets: 2 },
    last_event: { vc: 3008, team: 'away' },
    scorecard: [{ team: 'England', phase: '1st', score: '412 (120.3)', batting: [], bowling: [] }],
    at: '2026-11-21T04:12:33Z',
    ...overrides,
  };
}
