import type {
  CatalogStatus,
  FixturesHealth,
  League,
  LiveSnapshot,
  Match,
  MatchResult,
  Page,
  Sport,
  Team,
} from './fixtures-types';
import { HttpClient, type HttpOptions } from './http';
import { paginate } from './paginate';

export interface PageParams {
  readonly limit?: number;
  readonly offset?: number;
}

export interface MatchFilter {
  readonly league: number;
  readonly status?: CatalogStatus;
  /** ISO 8601 UTC; start_time at or after. */
  readonly start_after?: string;
  /** ISO 8601 UTC; start_time at or before. */
  readonly start_before?: string;
}

export type FixturesClientOptions = Omit<HttpOptions, 'baseUrl'> & {
  /** The REST base, base path included: `http://host:3000/v1`. */
  readonly baseUrl: string;
};

/**
 * REST client of fixtures-live. Single pages come from `leagues`, `matches`
 * and the like; `eachLeague`, `eachMatch`, ... iterate every page.
 */
export class FixturesClient {
  readonly http: HttpClient;

  constructor(options: FixturesClientOptions) {
    this.http = new HttpClient('fixtures-live', options);
  }

  health(): Promise<FixturesHealth> {
    return this.http.get('/health');
  }

  sports(): Promise<Sport[]> {
    return this.http.get('/sports');
  }

  leagues(sport: number, page: PageParams = {}): Promise<Page<League>> {
    return this.http.get('/leagues', { sport, ...page });
  }

  activeLeagues(sport: number, page: PageParams = {}): Promise<Page<League>> {
    return this.http.get('/leagues/active', { sport, ...page });
  }

  matches(filter: MatchFilter, page: PageParams = {}): Promise<Page<Match>> {
    return this.http.get('/matches', { ...filter, ...page });
  }

  activeMatches(league: number, page: PageParams = {}): Promise<Page<Match>> {
    return this.http.get('/matches/active', { league, ...page });
  }

  /** STARTED matches and Tests at CLOSE_OF_PLAY of a sport; not paginated. */
  liveMatches(sport: number): Promise<Match[]> {
    return this.http.get('/matches/live', { sport });
  }

  match(matchId: number): Promise<Match> {
    return this.http.get(`/matches/${matchId}`);
  }

  /** The live snapshot; its clock is already projected to the time of the answer. */
  live(matchId: number): Promise<LiveSnapshot> {
    return this.http.get(`/matches/${matchId}/live`);
  }

  result(matchId: number): Promise<MatchResult> {
    return this.http.get(`/matches/${matchId}/result`);
  }

  teams(league: number, page: PageParams = {}): Promise<Page<Team>> {
    return this.http.get('/teams', { league, ...page });
  }

  eachLeague(sport: number, pageSize?: number): AsyncGenerator<League, void, undefined> {
    return paginate((offset, limit) => this.leagues(sport, { offset, limit }), pageSize);
  }

  eachActiveLeague(sport: number, pageSize?: number): AsyncGenerator<League, void, undefined> {
    return paginate((offset, limit) => this.activeLeagues(sport, { offset, limit }), pageSize);
  }

  eachMatch(filter: MatchFilter, pageSize?: number): AsyncGenerator<Match, void, undefined> {
    return paginate((offset, limit) => this.matches(filter, { offset, limit }), pageSize);
  }

  eachActiveMatch(league: number, pageSize?: number): AsyncGenerator<Match, void, undefined> {
    return paginate((offset, limit) => this.activeMatches(league, { offset, limit }), pageSize);
  }

  eachTeam(league: number, pageSize?: number): AsyncGenerator<Team, void, undefined> {
    return paginate((offset, limit) => this.teams(league, { offset, limit }), pageSize);
  }
}
