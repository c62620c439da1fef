import {
  cricketState,
  rawCricketState,
  rawEnvelope,
  rawSoccerState,
  soccerState,
} from '../../../../test/fixtures-live/livescores-bodies';
import {
  parseKit,
  parseLeagues,
  parseLiveEnvelope,
  parseLiveState,
  parseMatches,
  parseSports,
  parseTeams,
} from './livescores.parsers';
import type { ParseResult } from './parse-result';

function value<T>(result: ParseResult<T>): T {
  if (!result.ok) throw new Error(`expected ok, got: ${result.error}`);
  return result.value;
}

function error<T>(result: ParseResult<T>): string {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.value)}`);
  return result.error;
}

function rawMatch(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'fx-9001',
    stat_id: 'st-77',
    live_id: 'lv-12',
    home_team_id: 'tm-ars',
    away_team_id: 'tm-che',
    start_time: '2026-11-21T15:00:00Z',
    status: 'scheduled',
    format: null,
    ...overrides,
  };
}

function withState(patch: (state: Record<string, unknown>) => void, base = rawSoccerState()): unknown {
  patch(base);
  return base;
}

describe('catalog parsers', () => {
  it('reads sports, ignoring fields it does not know', () => {
    const body = [
      { id: 'sp-soccer', key: 'soccer', name: 'Soccer', icon: 'ball.png' },
      { id: 'sp-cricket', key: 'cricket', name: 'Cricket' },
    ];
    expect(value(parseSports(body))).toEqual([
      { id: 'sp-soccer', key: 'soccer', name: 'Soccer' },
      { id: 'sp-cricket', key: 'cricket', name: 'Cricket' },
    ]);
  });

  it('reads leagues and teams', () => {
    expect(value(parseLeagues([{ id: 'lg-epl', name: 'Premier League' }]))).toEqual([
      { id: 'lg-epl', name: 'Premier League' },
    ]);
    expect(value(parseTeams([{ id: 'tm-ars', name: 'Arsenal' }]))).toEqual([
      { id: 'tm-ars', name: 'Arsenal' },
    ]);
    expect(value(parseTeams([]))).toEqual([]);
  });

  it.each([
    ['an object instead of a list', { id: 'sp' }],
    ['a string', 'oops'],
    ['null', null],
    ['a numeric id', [{ id: 7, key: 'soccer', name: 'Soccer' }]],
    ['an empty id', [{ id: '', key: 'soccer', name: 'Soccer' }]],
    ['a missing name', [{ id: 'sp-soccer', key: 'soccer' }]],
  ])('rejects sports given %s', (_case, body) => {
    expect(error(parseSports(body))).toMatch(/^sports/);
  });

  it('names the offending field', () => {
    expect(
      error(
        parseLeagues([
          { id: 'lg-1', name: 'A' },
          { id: 2, name: 'B' },
        ]),
      ),
    ).toBe('leagues[1].id: expected non-empty string id, got 2');
    expect(error(parseTeams([{ id: 'tm-1' }]))).toBe('teams[0].name: expected string, got undefined');
  });

  it('reads a match as the contract shows it', () => {
    expect(value(parseMatches([rawMatch()]))).toEqual([
      {
        id: 'fx-9001',
        stat_id: 'st-77',
        live_id: 'lv-12',
        home_team_id: 'tm-ars',
        away_team_id: 'tm-che',
        start_time: '2026-11-21T15:00:00Z',
        status: 'scheduled',
        format: null,
      },
    ]);
  });

  it('takes a null, empty or absent live_id and format as null', () => {
    const [withNulls, withoutFields, emptyLiveId] = value(
      parseMatches([
        rawMatch({ live_id: null }),
        rawMatch({ live_id: undefined, format: undefined }),
        rawMatch({ live_id: '' }),
      ]),
    );
    expect(withNulls.live_id).toBeNull();
    expect(emptyLiveId.live_id).toBeNull();
    expect(withoutFields.live_id).toBeNull();
    expect(withoutFields.format).toBeNull();
  });

  it.each(['test', 't20', 'one_day', 'the_hundred'])('keeps the cricket format %s', (format) => {
    expect(value(parseMatches([rawMatch({ format })]))[0].format).toBe(format);
  });

  it('treats a format it does not know as unknown overs rather than failing the body', () => {
    expect(value(parseMatches([rawMatch({ format: 't10' })]))[0].format).toBeNull();
  });

  it.each(['scheduled', 'in_play', 'close_of_play', 'finished', 'suspended', 'postponed', 'cancelled'])(
    'accepts the match status %s',
    (status) => {
      expect(value(parseMatches([rawMatch({ status })]))[0].status).toBe(status);
    },
  );

  it.each([
    ['an unknown status', { status: 'abandoned' }, 'matches[0].status'],
    ['a numeric id', { id: 9001 }, 'matches[0].id'],
    ['a missing stat_id', { stat_id: undefined }, 'matches[0].stat_id'],
    ['a numeric live_id', { live_id: 12 }, 'matches[0].live_id'],
    ['an unparsable start_time', { start_time: 'tomorrow' }, 'matches[0].start_time'],
    ['a start_time without zone', { start_time: '2026-11-21T15:00:00' }, 'matches[0].start_time'],
    ['a numeric format', { format: 20 }, 'matches[0].format'],
  ])('rejects a match with %s', (_case, overrides, path) => {
    expect(error(parseMatches([rawMatch(overrides)]))).toContain(`${path}:`);
  });

  it('accepts RFC 3339 times with fractions and offsets', () => {
    const [a, b] = value(
      parseMatches([
        rawMatch({ start_time: '2026-11-21T15:00:00.250Z' }),
        rawMatch({ start_time: '2026-11-21T16:00:00+01:00' }),
      ]),
    );
    expect(a.start_time).toBe('2026-11-21T15:00:00.250Z');
    expect(b.start_time).toBe('2026-11-21T16:00:00+01:00');
  });

  it('reads a kit and rejects anything without a url', () => {
    expect(value(parseKit({ url: 'https://cdn.example/kits/tm-ars.png' }))).toEqual({
      url: 'https://cdn.example/kits/tm-ars.png',
    });
    expect(error(parseKit({}))).toBe('kit.url: expected string, got undefined');
    expect(error(parseKit({ url: '' }))).toContain('kit.url');
    expect(error(parseKit([]))).toBe('kit: expected object, got array');
  });
});

describe('parseLiveEnvelope', () => {
  it('reads the contract soccer message', () => {
    expect(value(parseLiveEnvelope(rawEnvelope()))).toEqual({
      stat_id: 'st-77',
      seq: 18812,
      sent_at: '2026-11-21T15:23:11Z',
      state: soccerState(),
    });
  });

  it('reads the contract cricket message', () => {
    expect(value(parseLiveEnvelope(rawEnvelope(rawCricketState()))).state).toEqual(cricketState());
  });

  it.each([
    ['a numeric stat_id', { stat_id: 77 }, 'stat_id'],
    ['a fractional seq', { seq: 1.5 }, 'seq'],
    ['a string seq', { seq: '18812' }, 'seq'],
    ['a negative seq', { seq: -1 }, 'seq'],
    ['a bad sent_at', { sent_at: 'now' }, 'sent_at'],
    ['no state', { state: undefined }, 'state'],
  ])('rejects an envelope with %s', (_case, overrides, path) => {
    expect(error(parseLiveEnvelope({ ...rawEnvelope(), ...overrides }))).toMatch(new RegExp(`^${path}:`));
  });

  it('rejects a body that is not an object at all', () => {
    expect(error(parseLiveEnvelope('garbage'))).toBe('message: expected object, got "garbage"');
    expect(error(parseLiveEnvelope(undefined))).toBe('message: expected object, got undefined');
  });

  it('rejects a sport it has no live shape for', () => {
    expect(error(parseLiveState({ sport: 'tennis' }))).toBe(
      'state.sport: expected soccer or cricket, got "tennis"',
    );
  });
});

describe('soccer state parsing', () => {
  it.each(['not_started', '1h', 'ht', '2h', 'et', 'pen', 'ft'])('accepts the status %s', (status) => {
    expect(value(parseLiveState(withState((s) => (s.status = status)))).status).toBe(status);
  });

  it.each([
    ['an unknown status', (s: Record<string, unknown>) => (s.status = 'half'), 'state.status'],
    [
      'a string minute',
      (s: Record<string, unknown>) => (s.clock = { ...clockOf(s), minute: '23' }),
      'state.clock.minute',
    ],
    [
      'a running flag as text',
      (s: Record<string, unknown>) => (s.clock = { ...clockOf(s), running: 'yes' }),
      'state.clock.running',
    ],
    [
      'a bad clock anchor',
      (s: Record<string, unknown>) => (s.clock = { ...clockOf(s), at: '15:23' }),
      'state.clock.at',
    ],
    ['no clock', (s: Record<string, unknown>) => delete s.clock, 'state.clock'],
    [
      'a string score',
      (s: Record<string, unknown>) => (s.score = { home: '1', away: 0 }),
      'state.score.home',
    ],
    [
      'a bad shootout',
      (s: Record<string, unknown>) => (s.score = { home: 1, away: 1, shootout: { home: 'x' } }),
      'state.score.shootout.home',
    ],
    [
      'a string phase code',
      (s: Record<string, unknown>) => (s.phase = { vc: '1003', team: 'home' }),
      'state.phase.vc',
    ],
    [
      'a phase team that is no side',
      (s: Record<string, unknown>) => (s.phase = { vc: 1003, team: 'both' }),
      'state.phase.team',
    ],
    [
      'a stat pair of three',
      (s: Record<string, unknown>) => (s.stats = { corners: [1, 2, 3] }),
      'state.stats.corners',
    ],
    [
      'a stat given as text',
      (s: Record<string, unknown>) => (s.stats = { corners: ['1', '2'] }),
      'state.stats.corners[0]',
    ],
    [
      'an incident without team',
      (s: Record<string, unknown>) => (s.incidents = [{ vc: 2001, minute: '3' }]),
      'state.incidents[0].team',
    ],
    [
      'a ball with text coordinates',
      (s: Record<string, unknown>) => (s.ball = { x: '0.1', y: 0.2, vc: 1001 }),
      'state.ball.x',
    ],
  ])('rejects %s, naming the field', (_case, patch, path) => {
    expect(error(parseLiveState(withState(patch)))).toMatch(
      new RegExp(`^${path.replace(/[[\].]/g, '\\$&')}:`),
    );
  });

  it('keeps optional fields absent when the provider leaves them out', () => {
    const state = value(
      parseLiveState(
        withState((s) => {
          delete s.competition;
          delete s.ball;
          delete s.extras;
          delete s.incidents;
          s.clock = { minute: 0, second: 0, period: '1H', running: false };
          s.phase = { vc: 1000 };
          s.stats = {};
        }),
      ),
    );
    expect(state).toEqual({
      sport: 'soccer',
      status: '1h',
      clock: { minute: 0, second: 0, period: '1H', running: false, added: 0 },
      score: { home: 1, away: 0 },
      phase: { vc: 1000, team: '' },
      stats: {},
      incidents: [],
    });
    if (state.sport !== 'soccer') throw new Error('expected soccer');
    expect(Object.keys(state)).not.toContain('ball');
    expect(Object.keys(state.clock)).not.toContain('at');
  });

  it('reads a shootout tally, an anchored ball and numeric incident minutes', () => {
    const state = value(
      parseLiveState(
        withState((s) => {
          s.score = { home: 2, away: 2, shootout: { home: 3, away: 2 } };
          s.ball = { x: 0.5, y: 0.5, vc: 1011, minute: 88, detail: 'Header from a corner' };
          s.incidents = [{ vc: 2003, minute: 44, team: 'away' }];
        }),
      ),
    );
    if (state.sport !== 'soccer') throw new Error('expected soccer');
    expect(state.score.shootout).toEqual({ home: 3, away: 2 });
    expect(state.ball).toEqual({ x: 0.5, y: 0.5, vc: 1011, minute: '88', detail: 'Header from a corner' });
    expect(state.incidents).toEqual([{ vc: 2003, minute: '44', team: 'away' }]);
  });

  it('ignores stat keys and extras it does not know, and drops extras of an unexpected shape', () => {
    const state = value(
      parseLiveState(
        withState((s) => {
          s.stats = { corners: [4, 1], fouls: [9, 12] };
          s.extras = { xg: [1.2], pressure: [0.1, 'x'], form: ['WWDLW', 'LDWWL'], heatmap: [[0]] };
        }),
      ),
    );
    if (state.sport !== 'soccer') throw new Error('expected soccer');
    expect(state.stats).toEqual({ corners: [4, 1] });
    expect(state.extras).toEqual({ form: ['WWDLW', 'LDWWL'] });
  });

  it('leaves extras out when nothing in them is usable', () => {
    const state = value(parseLiveState(withState((s) => (s.extras = { heatmap: [] }))));
    expect(Object.keys(state)).not.toContain('extras');
  });

  it('takes a blank competition as absent', () => {
    const state = value(parseLiveState(withState((s) => (s.competition = '  '))));
    expect(state.competition).toBeUndefined();
  });
});

describe('cricket state parsing', () => {
  const cricket = (patch: (state: Record<string, unknown>) => void) => withState(patch, rawCricketState());

  it.each([
    'not_started',
    'live',
    'innings_break',
    'rain',
    'bad_light',
    'lunch',
    'tea',
    'drinks',
    'stumps',
    'ended',
  ])('accepts the status %s', (status) => {
    expect(value(parseLiveState(cricket((s) => (s.status = status)))).status).toBe(status);
  });

  it('keeps optional fields absent and defaults an unknown format to null', () => {
    const state = value(
      parseLiveState(
        cricket((s) => {
          delete s.competition;
          delete s.set_score;
          delete s.last_event;
          delete s.scorecard;
          delete s.at;
          s.format = null;
          s.batsmen = [{ name: 'Smith', runs: 0, balls: 0 }];
        }),
      ),
    );
    expect(state).toEqual({
      sport: 'cricket',
      status: 'live',
      format: null,
      innings: 3,
      batting: 'away',
      score: '245/6 (61.2)',
      over: { number: 62, ball: 2, this_over: ['1', '0', 'W'] },
      batsmen: [{ name: 'Smith', runs: 0, balls: 0 }],
      bowler: { name: 'Anderson', overs: '14.2', maidens: 4, runs: 31, wickets: 2 },
    });
  });

  it('passes scorecard items through untouched', () => {
    const scorecard = [{ team: 'England', phase: '1st', anything: { nested: [1, 2] } }];
    const state = value(parseLiveState(cricket((s) => (s.scorecard = scorecard))));
    if (state.sport !== 'cricket') throw new Error('expected cricket');
    expect(state.scorecard).toEqual(scorecard);
  });

  it.each([
    ['an unknown status', (s: Record<string, unknown>) => (s.status = 'lunchtime'), 'state.status'],
    ['a numeric score', (s: Record<string, unknown>) => (s.score = 245), 'state.score'],
    ['a string innings', (s: Record<string, unknown>) => (s.innings = '3'), 'state.innings'],
    ['batting by nobody', (s: Record<string, unknown>) => (s.batting = ''), 'state.batting'],
    ['no over', (s: Record<string, unknown>) => delete s.over, 'state.over'],
    [
      'a fractional ball',
      (s: Record<string, unknown>) => (s.over = { number: 1, ball: 1.5, this_over: [] }),
      'state.over.ball',
    ],
    ['batsmen as an object', (s: Record<string, unknown>) => (s.batsmen = {}), 'state.batsmen'],
    [
      'a batsman with text runs',
      (s: Record<string, unknown>) => (s.batsmen = [{ name: 'A', runs: '3', balls: 1 }]),
      'state.batsmen[0].runs',
    ],
    ['no bowler', (s: Record<string, unknown>) => (s.bowler = null), 'state.bowler'],
    [
      'a text event code',
      (s: Record<string, unknown>) => (s.last_event = { vc: 'W', team: 'home' }),
      'state.last_event.vc',
    ],
    ['a scorecard that is no list', (s: Record<string, unknown>) => (s.scorecard = {}), 'state.scorecard'],
    ['a bad time', (s: Record<string, unknown>) => (s.at = 'yesterday'), 'state.at'],
  ])('rejects %s, naming the field', (_case, patch, path) => {
    expect(error(parseLiveState(cricket(patch)))).toMatch(new RegExp(`^${path.replace(/[[\].]/g, '\\$&')}:`));
  });
});

function clockOf(state: Record<string, unknown>): Record<string, unknown> {
  return state.clock as Record<string, unknown>;
}
