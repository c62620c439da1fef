import { cricketState, soccerState } from '../../../../../test/fixtures-live/livescores-bodies';
import type { CricketFormat } from '../../upstream/livescores.types';
import { buildSnapshot, resolveMatchType, type SnapshotContext } from './build-snapshot';

const producedAt = new Date('2026-11-21T15:23:11.640Z');

function ctx(overrides: Partial<SnapshotContext> = {}): SnapshotContext {
  return {
    homeName: 'Arsenal',
    awayName: 'Chelsea',
    leagueName: 'EPL',
    provider: { stat_id: 'st-77', live_id: 'lv-12', fixture_id: 'fx-9001' },
    catalogFormat: null,
    producedAt,
    ...overrides,
  };
}

describe('buildSnapshot: soccer', () => {
  it('builds the public snapshot of the contract example', () => {
    expect(buildSnapshot(soccerState(), ctx())).toEqual({
      v: 1,
      provider: { stat_id: 'st-77', live_id: 'lv-12', fixture_id: 'fx-9001' },
      sport: 'soccer',
      competition: 'Premier League',
      home: 'Arsenal',
      away: 'Chelsea',
      status: 'live',
      clock: { minute: 23, second: 10, period: '1H', running: true, added: 0, as_of: '2026-11-21T15:23:10Z' },
      score: { home: 1, away: 0 },
      phase: { team: 'home', code: 'dangerous_attack', label: 'Dangerous Attack', vc: 1003 },
      stats: {
        shots_on_target: { home: 3, away: 1 },
        shots_off_target: { home: 2, away: 2 },
        attacks: { home: 31, away: 22 },
        dangerous_attacks: { home: 14, away: 9 },
        possession: { home: 58, away: 42 },
        corners: { home: 4, away: 1 },
        yellow_cards: { home: 1, away: 2 },
        red_cards: { home: 0, away: 0 },
      },
      events: [{ minute: '17', type: 'goal', team: 'home', label: 'Goal - Saka', score: '1-0' }],
      ball: { x: 0.71, y: 0.38, event: 'dangerous_attack' },
      xg: { home: 1.21, away: 0.34 },
      pressure: [0.2, 0.4, -0.1],
      form: { home: 'WWDLW', away: 'LDWWL' },
      updated_at: '2026-11-21T15:23:11Z',
    });
  });

  it.each([
    ['not_started', 'not_started'],
    ['1h', 'live'],
    ['ht', 'ht'],
    ['2h', 'live'],
    ['et', 'et'],
    ['pen', 'shootout'],
    ['ft', 'ft'],
  ] as const)('maps the provider status %s to %s', (status, expected) => {
    expect(buildSnapshot(soccerState({ status }), ctx()).status).toBe(expected);
  });

  it('omits as_of when the clock has no anchor', () => {
    const state = soccerState({ clock: { minute: 0, second: 0, period: '1H', running: false, added: 0 } });
    const { clock } = buildSnapshot(state, ctx());
    expect(clock).toEqual({ minute: 0, second: 0, period: '1H', running: false, added: 0 });
    expect('as_of' in clock).toBe(false);
  });

  it('renders the clock anchor in the public timestamp shape', () => {
    const state = soccerState({
      clock: {
        minute: 50,
        second: 1,
        period: '2H',
        running: true,
        added: 3,
        at: '2026-11-21T16:20:01.900+00:00',
      },
    });
    expect(buildSnapshot(state, ctx()).clock).toEqual({
      minute: 50,
      second: 1,
      period: '2H',
      running: true,
      added: 3,
      as_of: '2026-11-21T16:20:01Z',
    });
  });

  it('carries the shootout tally once a shootout has begun', () => {
    const state = soccerState({ status: 'pen', score: { home: 2, away: 2, shootout: { home: 4, away: 3 } } });
    expect(buildSnapshot(state, ctx()).score).toEqual({ home: 2, away: 2, shootout: { home: 4, away: 3 } });
    expect('shootout' in buildSnapshot(soccerState(), ctx()).score).toBe(false);
  });

  it('decodes a phase code missing from the table as other, keeping its vc', () => {
    const snapshot = buildSnapshot(soccerState({ phase: { vc: 1999, team: '' } }), ctx());
    expect(snapshot.phase).toEqual({ team: '', code: 'other', label: 'Other', vc: 1999 });
  });

  it('keeps only the stat keys the provider sent', () => {
    const snapshot = buildSnapshot(soccerState({ stats: { corners: [4, 1], red_cards: [0, 1] } }), ctx());
    expect(snapshot.stats).toEqual({ corners: { home: 4, away: 1 }, red_cards: { home: 0, away: 1 } });
  });

  it('has null events until the first incident', () => {
    expect(buildSnapshot(soccerState({ incidents: [] }), ctx()).events).toBeNull();
  });

  it('labels every incident and puts the score on goals only', () => {
    const state = soccerState({
      incidents: [
        { vc: 2002, minute: '5', team: 'away', score: '0-0' },
        { vc: 2001, minute: '17', team: 'home', player: 'Saka', score: '1-0' },
        { vc: 2003, minute: '30', team: 'away', player: 'Caicedo' },
        { vc: 2004, minute: '44', team: 'away' },
        { vc: 2005, minute: '60', team: 'home', player: 'Odegaard' },
        { vc: 2006, minute: '70', team: 'home', player: 'Havertz' },
        { vc: 2007, minute: '120', team: 'home', player: 'Rice' },
        { vc: 2099, minute: '80', team: 'home', player: 'Raya' },
        { vc: 2001, minute: '90+2', team: 'away' },
      ],
    });
    expect(buildSnapshot(state, ctx()).events).toEqual([
      { minute: '5', type: 'corner', team: 'away', label: 'Corner' },
      { minute: '17', type: 'goal', team: 'home', label: 'Goal - Saka', score: '1-0' },
      { minute: '30', type: 'yellow_card', team: 'away', label: 'Yellow Card - Caicedo' },
      { minute: '44', type: 'red_card', team: 'away', label: 'Red Card' },
      { minute: '60', type: 'penalty', team: 'home', label: 'Penalty - Odegaard' },
      { minute: '70', type: 'substitution', team: 'home', label: 'Substitution - Havertz' },
      { minute: '120', type: 'shootout', team: 'home', label: 'Shootout - Rice' },
      { minute: '80', type: 'event', team: 'home', label: 'Event - Raya' },
      { minute: '90+2', type: 'goal', team: 'away', label: 'Goal' },
    ]);
  });

  it('shows an animation ball position with x, y and event only', () => {
    const ball = buildSnapshot(soccerState({ ball: { x: 0.2, y: 0.9, vc: 1009 } }), ctx()).ball;
    expect(ball).toEqual({ x: 0.2, y: 0.9, event: 'throw_in' });
    expect(Object.keys(ball ?? {})).toEqual(['x', 'y', 'event']);
  });

  it('adds minute and detail to a ball anchored to a notable event', () => {
    const state = soccerState({
      ball: { x: 0.95, y: 0.5, vc: 1011, minute: '17', detail: 'Saka, left foot' },
    });
    expect(buildSnapshot(state, ctx()).ball).toEqual({
      x: 0.95,
      y: 0.5,
      event: 'goal',
      minute: '17',
      detail: 'Saka, left foot',
    });
  });

  it('decodes an unknown ball code as other', () => {
    expect(buildSnapshot(soccerState({ ball: { x: 0, y: 0, vc: 4242 } }), ctx()).ball?.event).toBe('other');
  });

  it('omits the ball and every extra the provider does not send', () => {
    const snapshot = buildSnapshot(soccerState({ ball: undefined, extras: undefined }), ctx());
    for (const key of ['ball', 'xg', 'pressure', 'form']) expect(key in snapshot).toBe(false);
  });

  it('surfaces each extra on its own', () => {
    const snapshot = buildSnapshot(soccerState({ extras: { pressure: [0.5] } }), ctx());
    expect(snapshot.pressure).toEqual([0.5]);
    expect('xg' in snapshot || 'form' in snapshot).toBe(false);
  });

  it('falls back to the league name when the state names no competition', () => {
    expect(buildSnapshot(soccerState({ competition: undefined }), ctx()).competition).toBe('EPL');
  });

  it('takes the team names from the catalog', () => {
    const snapshot = buildSnapshot(soccerState(), ctx({ homeName: 'Spurs', awayName: 'Fulham' }));
    expect([snapshot.home, snapshot.away]).toEqual(['Spurs', 'Fulham']);
  });

  it('leaves out provider ids it does not have', () => {
    const snapshot = buildSnapshot(soccerState(), ctx({ provider: { stat_id: 'st-1', live_id: null } }));
    expect(snapshot.provider).toEqual({ stat_id: 'st-1' });
  });

  it('serializes updated_at last and never shares arrays with the state', () => {
    const state = soccerState();
    const snapshot = buildSnapshot(state, ctx());
    expect(Object.keys(snapshot).pop()).toBe('updated_at');
    snapshot.pressure?.push(1);
    expect(state.extras?.pressure).toEqual([0.2, 0.4, -0.1]);
  });
});

describe('buildSnapshot: cricket', () => {
  it('builds the public snapshot of the contract example', () => {
    expect(buildSnapshot(cricketState(), ctx({ homeName: 'England', awayName: 'Australia' }))).toEqual({
      sport: 'cricket',
      competition: 'The Ashes - 2nd Test',
      home: 'England',
      away: 'Australia',
      status: 'live',
      match_type: 'test',
      innings: 3,
      batting: 'away',
      score: { runs: 245, wickets: 6, overs: '61.2', raw: '245/6 (61.2)' },
      set_score: '412 & 245/6',
      over: { over: 62, ball: 2, this_over: ['1', '0', 'W'] },
      batsmen: [
        { name: 'Smith', runs: 54, balls: 101, on_strike: true },
        { name: 'Carey', runs: 3, balls: 9 },
      ],
      bowler: { name: 'Anderson', overs: '14.2', maidens: 4, runs: 31, wickets: 2 },
      last_event: { vc: 3008, team: 'away', code: 'wicket', label: 'Wicket' },
      scorecard: [{ team: 'England', phase: '1st', score: '412 (120.3)', batting: [], bowling: [] }],
      t: '2026-11-21T04:12:33Z',
    });
  });

  it('has no v, clock, phase, stats, events, ball or provider', () => {
    const snapshot = buildSnapshot(cricketState(), ctx());
    for (const key of ['v', 'clock', 'phase', 'stats', 'events', 'ball', 'provider', 'updated_at']) {
      expect(key in snapshot).toBe(false);
    }
  });

  it.each([
    ['not_started', 'not_started'],
    ['live', 'live'],
    ['innings_break', 'innings_break'],
    ['rain', 'stopped'],
    ['bad_light', 'stopped'],
    ['lunch', 'stopped'],
    ['tea', 'stopped'],
    ['drinks', 'stopped'],
    ['stumps', 'stopped'],
    ['ended', 'ended'],
  ] as const)('maps the provider status %s to %s', (status, expected) => {
    expect(buildSnapshot(cricketState({ status }), ctx()).status).toBe(expected);
  });

  it.each<[CricketFormat | null, CricketFormat | null, string]>([
    ['t20', 'test', 't20'],
    ['one_day', null, 'one_day'],
    [null, 'the_hundred', 'the_hundred'],
    [null, 'test', 'test'],
    [null, null, 'limited_overs'],
  ])('takes match_type from the catalog (%s), else the state (%s)', (catalogFormat, format, expected) => {
    expect(buildSnapshot(cricketState({ format }), ctx({ catalogFormat })).match_type).toBe(expected);
    expect(resolveMatchType(catalogFormat, format)).toBe(expected);
  });

  it('reads an all-out innings as ten wickets', () => {
    expect(buildSnapshot(cricketState({ score: '312 (88.4)' }), ctx()).score).toEqual({
      runs: 312,
      wickets: 10,
      overs: '88.4',
      raw: '312 (88.4)',
    });
  });

  it('flags the striker only', () => {
    const state = cricketState({
      batsmen: [
        { name: 'Root', runs: 12, balls: 20, on_strike: false },
        { name: 'Stokes', runs: 40, balls: 33, on_strike: true },
      ],
    });
    const [nonStriker, striker] = buildSnapshot(state, ctx()).batsmen;
    expect(nonStriker).toEqual({ name: 'Root', runs: 12, balls: 20 });
    expect('on_strike' in nonStriker).toBe(false);
    expect(striker).toEqual({ name: 'Stokes', runs: 40, balls: 33, on_strike: true });
  });

  it('decodes a last event missing from the table as other, keeping its vc', () => {
    const snapshot = buildSnapshot(cricketState({ last_event: { vc: 3999, team: '' } }), ctx());
    expect(snapshot.last_event).toEqual({ vc: 3999, team: '', code: 'other', label: 'Other' });
  });

  it('omits set_score, last_event and scorecard when the provider leaves them out', () => {
    const state = cricketState({ set_score: undefined, last_event: undefined, scorecard: undefined });
    const snapshot = buildSnapshot(state, ctx());
    for (const key of ['set_score', 'last_event', 'scorecard']) expect(key in snapshot).toBe(false);
  });

  it('uses the league name when the state names no competition', () => {
    expect(buildSnapshot(cricketState({ competition: undefined }), ctx()).competition).toBe('EPL');
  });

  it('takes t from the state, else from when the snapshot was produced', () => {
    expect(buildSnapshot(cricketState({ at: '2026-11-21T04:12:33.999Z' }), ctx()).t).toBe(
      '2026-11-21T04:12:33Z',
    );
    expect(buildSnapshot(cricketState({ at: undefined }), ctx()).t).toBe('2026-11-21T15:23:11Z');
  });
});
