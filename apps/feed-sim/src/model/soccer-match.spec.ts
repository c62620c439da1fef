import { Catalog, type Fixture } from './catalog';
import { SimTime, MINUTE, HOUR } from './sim-time';
import { INCIDENT, SoccerMatch, type SoccerState, type SoccerStatus } from './soccer-match';

const time = new SimTime(Date.UTC(2026, 10, 21, 12), 1);

function play(fixture: Fixture): { statuses: SoccerStatus[]; periods: string[]; last: SoccerState } {
  const match = new SoccerMatch(fixture, time);
  const statuses: SoccerStatus[] = [match.state().status];
  const periods: string[] = [match.state().clock.period];
  for (
    let t = fixture.startMs - 15 * MINUTE;
    t <= fixture.startMs + 4 * HOUR && !match.finished;
    t += 10_000
  ) {
    if (!match.advanceTo(t)) continue;
    const state = match.state();
    if (statuses[statuses.length - 1] !== state.status) statuses.push(state.status);
    if (periods[periods.length - 1] !== state.clock.period) periods.push(state.clock.period);
  }
  return { statuses, periods, last: match.state() };
}

describe('SoccerMatch', () => {
  const catalog = new Catalog(7, 1);
  const league = catalog.leaguesBySport.get('soccer')?.find((candidate) => !candidate.cup);
  const cup = catalog.leaguesBySport.get('soccer')?.find((candidate) => candidate.cup);
  if (!league || !cup) throw new Error('demo catalog has a league and a cup');

  it('goes from not started through both halves to full time, in real frames', () => {
    const { statuses, periods, last } = play(catalog.fixture(league, 3));
    expect(statuses).toEqual(['not_started', '1h', 'ht', '2h', 'ft']);
    expect(periods).toEqual(['1H', 'HT', '2H', 'FT']);
    expect(last.clock).toMatchObject({ period: 'FT', running: false });
  });

  it('keeps the score, the goal incidents and the stats consistent', () => {
    for (let index = 0; index < 10; index++) {
      const { last } = play(catalog.fixture(league, index));
      const goals = last.incidents.filter((incident) => incident.vc === INCIDENT.goal);
      expect(goals).toHaveLength(last.score.home + last.score.away);
      if (goals.length > 0)
        expect(goals[goals.length - 1].score).toBe(`${last.score.home}-${last.score.away}`);
      expect(last.stats.possession[0] + last.stats.possession[1]).toBe(100);
      expect(last.stats.corners[0] + last.stats.corners[1]).toBe(
        last.incidents.filter((incident) => incident.vc === INCIDENT.corner).length,
      );
    }
  });

  it('settles a drawn cup tie with extra time and, when still level, a shootout', () => {
    let sawShootout = false;
    for (let index = 0; index < 60 && !sawShootout; index++) {
      const { statuses, last } = play(catalog.fixture(cup, index));
      if (!statuses.includes('et')) continue;
      expect(statuses.slice(0, 4)).toEqual(['not_started', '1h', 'ht', '2h']);
      if (statuses.includes('pen')) {
        sawShootout = true;
        expect(statuses.slice(-3)).toEqual(['et', 'pen', 'ft']);
        expect(last.score.home).toBe(last.score.away);
        expect(last.score.shootout).toBeDefined();
        expect(last.score.shootout?.home).not.toBe(last.score.shootout?.away);
      }
    }
    expect(sawShootout).toBe(true);
  });

  it('is the same match for the same seed and a different one for another', () => {
    const a = play(catalog.fixture(league, 5)).last;
    const b = play(catalog.fixture(league, 5)).last;
    const other = play(new Catalog(8, 1).fixture(league, 5)).last;
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(JSON.stringify(other)).not.toBe(JSON.stringify(a));
  });

  it('moves the ball every second while the ball is in play', () => {
    const fixture = catalog.fixture(league, 1);
    const match = new SoccerMatch(fixture, time);
    match.advanceTo(fixture.startMs + 10 * MINUTE);
    const positions = new Set<string>();
    for (let s = 1; s <= 20; s++) {
      expect(match.advanceTo(fixture.startMs + 10 * MINUTE + s * 1000)).toBe(true);
      positions.add(JSON.stringify(match.state().ball));
    }
    expect(positions.size).toBeGreaterThan(5);
    expect(match.state().clock.at).toBe(time.iso(fixture.startMs + 10 * MINUTE + 20_000));
  });
});
