import { Catalog, type Fixture, type FixtureStatus, SPORTS, fraction } from './catalog';
import { type LiveMessage, LiveFeed } from './live-feed';
import { SimTime } from './sim-time';
import { Sportsbook } from './sportsbook';

export interface SimulationOptions {
  readonly seed: number;
  readonly scale: number;
  readonly speed: number;
  readonly wallStart: number;
  /** How long the book remembers changes for `since` deltas (wall ms). */
  readonly deltaRetentionMs: number;
  /** Kits become known at a stable point within this long after the start (wall ms). */
  readonly kitDelayMs: number;
}

export interface CatalogMatch {
  id: string;
  stat_id: string;
  live_id: string | null;
  home_team_id: string;
  away_team_id: string;
  start_time: string;
  status: FixtureStatus;
  format: string | null;
}

/**
 * Both upstreams over one simulated world: the live-score provider's catalog
 * and stream, and the sportsbook, advanced together so the book's matchups
 * follow the same fixtures. No I/O: the caller supplies wall time.
 */
export class Simulation {
  readonly time: SimTime;
  readonly catalog: Catalog;
  readonly live: LiveFeed;
  readonly book: Sportsbook;

  constructor(readonly options: SimulationOptions) {
    this.time = new SimTime(options.wallStart, options.speed);
    this.catalog = new Catalog(options.seed, options.scale);
    this.live = new LiveFeed(this.catalog, this.time, 0);
    this.book = new Sportsbook(this.catalog, this.live, this.time, options.deltaRetentionMs);
  }

  /** Advances everything to wall time `wallNow`; answers the live envelopes to send. */
  tick(wallNow: number): LiveMessage[] {
    const now = Math.max(this.live.simNow, this.time.simAt(wallNow));
    const messages = this.live.advance(now, wallNow);
    this.book.advance(now, wallNow);
    this.catalog.prune(now);
    return messages;
  }

  sports(): Array<{ id: string; key: string; name: string }> {
    return SPORTS.map((sport) => ({ ...sport }));
  }

  leaguesOf(sportId: string): Array<{ id: string; name: string }> | undefined {
    const sport = SPORTS.find((candidate) => candidate.id === sportId);
    if (!sport) return undefined;
    return (this.catalog.leaguesBySport.get(sport.key) ?? []).map(({ id, name }) => ({ id, name }));
  }

  teamsOf(leagueId: string): Array<{ id: string; name: string }> | undefined {
    const league = this.listedLeague(leagueId);
    return league?.teams.map(({ id, name }) => ({ id, name }));
  }

  matchesOf(leagueId: string): CatalogMatch[] | undefined {
    const league = this.listedLeague(leagueId);
    if (!league) return undefined;
    return this.catalog.fixturesOf(league, this.live.simNow).map((fixture) => this.matchOf(fixture));
  }

  /** A kit URL once known, else null (the provider answers 404 until then). */
  kitOf(teamId: string, wallNow: number): string | null | undefined {
    const team = this.catalog.teamsById.get(teamId);
    if (!team || team.id.startsWith('tm-bas')) return undefined;
    const knownAt =
      this.options.wallStart + fraction(this.options.seed, `kit:${teamId}`) * this.options.kitDelayMs;
    return wallNow >= knownAt ? `https://cdn.example/kits/${teamId}.png` : null;
  }

  private listedLeague(leagueId: string) {
    const league = this.catalog.league(leagueId);
    return league && league.sport !== 'basketball' ? league : undefined;
  }

  private matchOf(fixture: Fixture): CatalogMatch {
    const now = this.live.simNow;
    let format: string | null = null;
    if (fixture.league.sport === 'cricket') {
      // Limited-overs formats are sometimes announced only close to the start.
      const late = fixture.league.format !== 'test' && fixture.seed % 3 === 0;
      format = late && fixture.startMs - now > 2 * 3600 * 1000 ? null : fixture.league.format;
    }
    return {
      id: fixture.id,
      stat_id: fixture.statId,
      live_id: fixture.liveId,
      home_team_id: fixture.home.id,
      away_team_id: fixture.away.id,
      start_time: this.time.iso(fixture.startMs),
      status: this.live.statusOf(fixture),
      format,
    };
  }
}
