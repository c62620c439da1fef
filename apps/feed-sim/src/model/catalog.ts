import { LEAGUE_NAMES, playerNames, teamNames } from './names';
import { Random, hashString } from './random';
import { DAY, HOUR, MINUTE } from './sim-time';

export type LiveSport = 'soccer' | 'cricket';
export type CatalogSport = LiveSport | 'tennis';
/** Basketball is scheduled like the rest but only the sportsbook lists it. */
export type ScheduledSport = CatalogSport | 'basketball';
export type CricketFormat = 'test' | 't20' | 'one_day';
export type FixtureStatus =
  'scheduled' | 'in_play' | 'close_of_play' | 'finished' | 'suspended' | 'postponed' | 'cancelled';

/** What happens to a fixture besides being played. */
export type Fate = 'plays' | 'suspended_then_back' | 'postponed_then_back' | 'postponed' | 'cancelled';

export interface Team {
  readonly id: string;
  readonly name: string;
  readonly players: readonly string[];
}

export interface League {
  readonly id: string;
  readonly sport: ScheduledSport;
  readonly name: string;
  readonly teams: readonly Team[];
  /** Sim time between two kick-offs of this league. */
  readonly intervalMs: number;
  readonly offsetMs: number;
  /** Upper bound of a fixture's length, for deciding when it leaves the catalog. */
  readonly maxDurationMs: number;
  readonly format: CricketFormat | null;
  /** Cup ties are settled on the day: extra time and penalties. */
  readonly cup: boolean;
}

export interface Fixture {
  readonly id: string;
  readonly statId: string;
  readonly liveId: string | null;
  readonly league: League;
  readonly index: number;
  readonly home: Team;
  readonly away: Team;
  readonly startMs: number;
  readonly fate: Fate;
  /** Seed of the fixture's own story. */
  readonly seed: number;
}

export const SPORTS: ReadonlyArray<{ id: string; key: CatalogSport; name: string }> = [
  { id: 'sp-soccer', key: 'soccer', name: 'Soccer' },
  { id: 'sp-cricket', key: 'cricket', name: 'Cricket' },
  { id: 'sp-tennis', key: 'tennis', name: 'Tennis' },
];

const KEEP_FINISHED_MS = 3 * HOUR;
const FORMATS: readonly CricketFormat[] = ['t20', 'one_day', 'test'];

/**
 * The rolling schedule: sports, leagues, teams, and for each league an
 * endless series of fixtures at a fixed interval, of which the catalog lists
 * the recently finished ones and the next few. A fixture is a pure function
 * of (seed, league, index), so the window can slide without rebuilding.
 */
export class Catalog {
  readonly leagues: League[] = [];
  readonly leaguesBySport = new Map<ScheduledSport, League[]>();
  readonly teamsById = new Map<string, Team>();
  private readonly leaguesById = new Map<string, League>();
  private readonly fixtures = new Map<string, Fixture>();
  /** The last window per league: the live feed and the book ask for the same instant each tick. */
  private readonly windows = new Map<string, { now: number; fixtures: Fixture[] }>();
  readonly upcomingPerLeague: number;

  constructor(
    readonly seed: number,
    readonly scale: number,
  ) {
    this.upcomingPerLeague = 4 + Math.floor(scale / 4);
    const counts: Record<ScheduledSport, number> = {
      soccer: Math.max(3, Math.round(3 * scale)),
      cricket: Math.max(3, Math.round(0.4 * scale)),
      tennis: Math.max(1, Math.round(scale)),
      basketball: Math.max(1, Math.round(0.5 * scale)),
    };
    for (const sport of ['soccer', 'cricket', 'tennis', 'basketball'] as const) {
      const list: League[] = [];
      for (let n = 0; n < counts[sport]; n++) list.push(this.buildLeague(sport, n));
      this.leaguesBySport.set(sport, list);
      this.leagues.push(...list);
    }
  }

  league(id: string): League | undefined {
    return this.leaguesById.get(id);
  }

  /** The fixtures the catalog lists at sim time `now`, in kick-off order. */
  fixturesOf(league: League, now: number): Fixture[] {
    const cached = this.windows.get(league.id);
    if (cached?.now === now) return cached.fixtures;
    const fixtures = this.window(league, now);
    this.windows.set(league.id, { now, fixtures });
    return fixtures;
  }

  private window(league: League, now: number): Fixture[] {
    const current = Math.floor((now - league.offsetMs) / league.intervalMs);
    const past = Math.ceil((league.maxDurationMs + KEEP_FINISHED_MS) / league.intervalMs);
    const result: Fixture[] = [];
    for (let index = current - past; index <= current + this.upcomingPerLeague; index++) {
      const fixture = this.fixture(league, index);
      if (fixture.startMs + league.maxDurationMs + KEEP_FINISHED_MS >= now) result.push(fixture);
    }
    return result;
  }

  fixture(league: League, index: number): Fixture {
    const id = `fx-${league.id.slice(3)}-${index + 100000}`;
    const cached = this.fixtures.get(id);
    if (cached) return cached;
    const random = Random.of(this.seed, id);
    const homeIndex = random.int(0, league.teams.length - 1);
    let awayIndex = random.int(0, league.teams.length - 2);
    if (awayIndex >= homeIndex) awayIndex++;
    const fate = random.weighted<Fate>([
      ['plays', 90],
      ['suspended_then_back', 3],
      ['postponed_then_back', 3],
      ['postponed', 3],
      ['cancelled', 1],
    ]);
    const fixture: Fixture = {
      id,
      statId: `st-${id.slice(3)}`,
      liveId: random.chance(0.8) ? `lv-${id.slice(3)}` : null,
      league,
      index,
      home: league.teams[homeIndex],
      away: league.teams[awayIndex],
      startMs: league.offsetMs + index * league.intervalMs + random.int(0, 3) * 5 * MINUTE,
      fate: league.sport === 'cricket' && league.format === 'test' ? 'plays' : fate,
      seed: random.int(0, 0x7fffffff),
    };
    this.fixtures.set(id, fixture);
    return fixture;
  }

  /** Forgets fixtures that have left every window, so memory stays flat over days. */
  prune(now: number): void {
    for (const [id, fixture] of this.fixtures) {
      if (fixture.startMs + fixture.league.maxDurationMs + 2 * KEEP_FINISHED_MS < now)
        this.fixtures.delete(id);
    }
  }

  private buildLeague(sport: ScheduledSport, n: number): League {
    const random = Random.of(this.seed, `league:${sport}:${n}`);
    const names = LEAGUE_NAMES[sport];
    const base = names[n % names.length];
    const format = sport === 'cricket' ? FORMATS[n % FORMATS.length] : null;
    const name =
      n < names.length ? base : `${base} ${String.fromCharCode(65 + (((n / names.length) % 26) | 0))}${n}`;
    const id = `lg-${sport.slice(0, 3)}${n}`;
    const teamCount = sport === 'cricket' && format === 'test' ? 2 : 12;
    const teams = teamNames(random.fork('teams'), sport, teamCount).map((teamName, i) => {
      const team: Team = {
        id: `tm-${sport.slice(0, 3)}${n}-${i}`,
        name: teamName,
        players: playerNames(random.fork(`players:${i}`), sport === 'tennis' ? 1 : 16),
      };
      this.teamsById.set(team.id, team);
      return team;
    });
    const timing = leagueTiming(sport, format, random);
    const league: League = {
      id,
      sport,
      name,
      teams,
      ...timing,
      offsetMs: random.int(0, Math.floor(timing.intervalMs / MINUTE) - 1) * MINUTE,
      format,
      cup: sport === 'soccer' && base === 'Cup',
    };
    this.leaguesById.set(id, league);
    return league;
  }
}

function leagueTiming(
  sport: ScheduledSport,
  format: CricketFormat | null,
  random: Random,
): { intervalMs: number; maxDurationMs: number } {
  if (sport === 'soccer') return { intervalMs: random.int(95, 125) * MINUTE, maxDurationMs: 3 * HOUR };
  if (sport === 'tennis') return { intervalMs: random.int(50, 80) * MINUTE, maxDurationMs: 4 * HOUR };
  if (sport === 'basketball') return { intervalMs: random.int(120, 160) * MINUTE, maxDurationMs: 3 * HOUR };
  if (format === 't20') return { intervalMs: 4 * HOUR, maxDurationMs: 5 * HOUR };
  if (format === 'one_day') return { intervalMs: 10 * HOUR, maxDurationMs: 11 * HOUR };
  return { intervalMs: 6 * DAY, maxDurationMs: 5 * DAY };
}

/** A stable share of catalog sims (kits, formats) keyed by an id. */
export function fraction(seed: number, label: string): number {
  return hashString(`${seed}:${label}`) / 4294967296;
}

/** Status a fate imposes around the start, or null when the fixture is left to play. */
export function fateStatus(fixture: Fixture, now: number): FixtureStatus | null {
  const before = fixture.startMs - now;
  switch (fixture.fate) {
    case 'cancelled':
      return before < 6 * HOUR ? 'cancelled' : 'scheduled';
    case 'postponed':
      return before < 4 * HOUR ? 'postponed' : 'scheduled';
    case 'postponed_then_back':
      return before < 4 * HOUR && before >= HOUR ? 'postponed' : null;
    case 'suspended_then_back':
      return before < 2 * HOUR && before >= 30 * MINUTE ? 'suspended' : null;
    default:
      return null;
  }
}

export function fixturePlays(fixture: Fixture): boolean {
  return fixture.fate !== 'postponed' && fixture.fate !== 'cancelled';
}
