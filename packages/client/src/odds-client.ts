import { HttpClient, type HttpOptions } from './http';
import type { BookLeague, BookMatch, BookRouteList, BookSport, MatchOdds } from './odds-types';

export type OddsClientOptions = Omit<HttpOptions, 'baseUrl'> & {
  /** The sportsbook's REST base, prefix included: `http://host:3001/v1/book`. */
  readonly baseUrl: string;
};

/** REST client of one sportsbook of odds-passthrough. Lists are bare arrays, not paginated. */
export class OddsClient {
  readonly http: HttpClient;

  constructor(options: OddsClientOptions) {
    this.http = new HttpClient('odds-passthrough', options);
  }

  /** The route list of the prefix; needs no key. */
  routes(): Promise<BookRouteList> {
    return this.http.get('/');
  }

  sports(): Promise<BookSport[]> {
    return this.http.get('/sports');
  }

  leagues(filter: { sport?: number } = {}): Promise<BookLeague[]> {
    return this.http.get('/leagues', { ...filter });
  }

  matches(filter: { sport?: number; league?: number } = {}): Promise<BookMatch[]> {
    return this.http.get('/matches', { ...filter });
  }

  odds(match: number): Promise<MatchOdds> {
    return this.http.get('/odds', { match });
  }
}
