import { Catalog, type Fixture } from './catalog';
import { CricketMatch, type CricketState, inningsScore, oversOf } from './cricket-match';
import { DAY, MINUTE, SimTime } from './sim-time';

const time = new SimTime(Date.UTC(2026, 10, 21, 4), 1);
const SCORE = /^\d+(\/\d)? \(\d+(\.[1-5])?\)$/;

function run(fixture: Fixture, format: 't20' | 'one_day' | 'test', until: number) {
  const match = new CricketMatch(fixture, format, time);
  const states: CricketState[] = [match.state()];
  const catalogStatuses = [match.catalogStatus()];
  for (let t = fixture.startMs - 30 * MINUTE; t <= until && !match.finished; t += 20_000) {
    if (!match.advanceTo(t)) continue;
    states.push(match.state());
    if (catalogStatuses[catalogStatuses.length - 1] !== match.catalogStatus()) {
      catalogStatuses.push(match.catalogStatus());
    }
  }
  return { match, states, catalogStatuses };
}

describe('CricketMatch', () => {
  const catalog = new Catalog(3, 1);
  const leagueOf = (format: string) => {
    const league = catalog.leaguesBySport.get('cricket')?.find((candidate) => candidate.format === format);
    if (!league) throw new Error(`no ${format} league`);
    return league;
  };

  it('plays a T20: two innings with a break, scores in the provider format, then ends', () => {
    const fixture = catalog.fixture(leagueOf('t20'), 2);
    const { match, states } = run(fixture, 't20', fixture.startMs + DAY);
    expect(match.finished).toBe(true);
    const statuses = [...new Set(states.map((state) => state.status))];
    expect(statuses[0]).toBe('not_started');
    expect(statuses).toContain('innings_break');
    expect(statuses[statuses.length - 1]).toBe('ended');
    for (const state of states) {
      expect(state.score).toMatch(SCORE);
      expect(state.batsmen.filter((batter) => batter.on_strike)).toHaveLength(1);
    }
    const last = states[states.length - 1];
    expect(last.innings).toBe(2);
    expect(last.scorecard).toHaveLength(2);
    for (const innings of (last.scorecard ?? []) as Array<{ overs: Array<{ over: number }> }>) {
      expect(innings.overs.map((row) => row.over)).toEqual(innings.overs.map((_, index) => index + 1));
    }
    const first = last.scorecard?.[0] as Record<string, unknown>;
    expect(first.phase).toBe('1st');
    expect(Array.isArray(first.batting) && Array.isArray(first.bowling)).toBe(true);
  });

  it('stops a limited-overs match for rain in some matches and resumes it', () => {
    let sawRain = false;
    for (let index = 0; index < 20 && !sawRain; index++) {
      const fixture = catalog.fixture(leagueOf('one_day'), index);
      const { states, match } = run(fixture, 'one_day', fixture.startMs + DAY);
      const rainAt = states.findIndex((state) => state.status === 'rain');
      if (rainAt < 0) continue;
      sawRain = true;
      expect(states.slice(rainAt).some((state) => state.status === 'live')).toBe(true);
      for (const state of states) expect(state.over.ball).toBeLessThanOrEqual(6);
      const innings = (states[states.length - 1].scorecard ?? []) as Array<{
        overs: Array<{ over: number }>;
      }>;
      for (const { overs } of innings)
        expect(overs.map((row) => row.over)).toEqual(overs.map((_, i) => i + 1));
      expect(match.finished).toBe(true);
    }
    expect(sawRain).toBe(true);
  });

  it('takes a Test through lunch, tea and stumps (close of play, frozen) and on to its end', () => {
    const fixture = catalog.fixture(leagueOf('test'), 1);
    const { match, states, catalogStatuses } = run(fixture, 'test', fixture.startMs + 6 * DAY);
    const statuses = new Set(states.map((state) => state.status));
    for (const status of ['lunch', 'tea', 'stumps', 'ended'] as const) expect(statuses).toContain(status);
    expect(catalogStatuses.slice(0, 4)).toEqual(['scheduled', 'in_play', 'close_of_play', 'in_play']);
    expect(catalogStatuses[catalogStatuses.length - 1]).toBe('finished');
    expect(match.finished).toBe(true);
    const last = states[states.length - 1];
    expect(last.scorecard?.length).toBeLessThanOrEqual(4);
  });

  it('stops some Tests for bad light and resumes them', () => {
    let sawBadLight = false;
    for (let index = 0; index < 10 && !sawBadLight; index++) {
      const fixture = catalog.fixture(leagueOf('test'), index);
      const { states } = run(fixture, 'test', fixture.startMs + 6 * DAY);
      const at = states.findIndex((state) => state.status === 'bad_light');
      if (at < 0) continue;
      sawBadLight = true;
      expect(states[at + 1]?.status).toBe('live');
    }
    expect(sawBadLight).toBe(true);
  });

  it('sends nothing while a Test is at stumps', () => {
    const fixture = catalog.fixture(leagueOf('test'), 1);
    const match = new CricketMatch(fixture, 'test', time);
    let t = fixture.startMs;
    while (!match.frozen) {
      t += 60_000;
      match.advanceTo(t);
    }
    const atStumps = JSON.stringify(match.state());
    expect(match.state().status).toBe('stumps');
    expect(match.advanceTo(t + 6 * 3600_000)).toBe(false);
    expect(JSON.stringify(match.state())).toBe(atStumps);
  });
});

describe('cricket score strings', () => {
  it('writes overs and all-out innings the way the provider does', () => {
    expect(oversOf(368)).toBe('61.2');
    expect(oversOf(120)).toBe('20');
    expect(inningsScore({ runs: 245, wickets: 6, legalBalls: 368 })).toBe('245/6 (61.2)');
    expect(inningsScore({ runs: 312, wickets: 10, legalBalls: 532 })).toBe('312 (88.4)');
  });
});
