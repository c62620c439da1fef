import { BookReadPort } from '../../apps/odds-passthrough/src/book/book-read-port';
import type { MatchOdds } from '../../apps/odds-passthrough/src/book/domain/match-odds';
import { aSelection } from './selection-factory';

export const ONE_MATCH_BOOK = { name: 'book', prefix: '/v1/book', grant: 'book' };
export const ONE_MATCH = 100;
export const ONE_MATCH_SPORT = 29;

/** A book of one match whose selections a test replaces, read afresh on every request as a replica does. */
export class OneMatchBook extends BookReadPort {
  selections = [aSelection({ market_key: 'm1' }), aSelection({ market_key: 'm2' })];
  ts = 1;
  books = () => [ONE_MATCH_BOOK];
  sports = () => [];
  leagues = () => [];
  matches = () => [];
  snapshot = (_book: string, matchId: number): MatchOdds | undefined =>
    matchId === ONE_MATCH
      ? { match_id: ONE_MATCH, sport_id: ONE_MATCH_SPORT, ts: this.ts, selections: [...this.selections] }
      : undefined;
  matchPosition = () => undefined;
  newestSeq = () => 0;
  matchSport = (_book: string, matchId: number) => (matchId === ONE_MATCH ? ONE_MATCH_SPORT : undefined);
  matchIds = () => [ONE_MATCH];
  onChange = () => () => undefined;
  feedHealthy = () => true;
}
