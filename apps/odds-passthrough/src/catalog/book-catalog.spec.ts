import { anOddsPrincipal } from '../../../../test/odds-passthrough/principal-factory';
import { aSelection } from '../../../../test/odds-passthrough/selection-factory';
import { BookReadPort } from '../book/book-read-port';
import type { MatchOdds } from '../book/domain/match-odds';
import { BookCatalog } from './book-catalog';
import { OddsAnswerFreshness } from './odds-answer-freshness';

const BOOK = { name: 'book', prefix: '/v1/book', grant: 'book' };
const MATCH = 100;
const SPORT = 29;

/** A book of one match whose selections the test replaces, read afresh on every request as a replica does. */
class OneMatchBook extends BookReadPort {
  selections = [aSelection({ market_key: 'm1' }), aSelection({ market_key: 'm2' })];
  ts = 1;
  books = () => [BOOK];
  sports = () => [];
  leagues = () => [];
  matches = () => [];
  snapshot = (_book: string, matchId: number): MatchOdds | undefined =>
    matchId === MATCH
      ? { match_id: MATCH, sport_id: SPORT, ts: this.ts, selections: [...this.selections] }
      : undefined;
  matchPosition = () => undefined;
  newestSeq = () => 0;
  matchSport = (_book: string, matchId: number) => (matchId === MATCH ? SPORT : undefined);
  matchIds = () => [MATCH];
  onChange = () => () => undefined;
  feedHealthy = () => true;
}

describe('BookCatalog odds', () => {
  const granted = anOddsPrincipal([SPORT]);

  it('serialises a match once for requests between two of its changes', () => {
    const book = new OneMatchBook();
    const catalog = new BookCatalog(book, BOOK, new OddsAnswerFreshness());
    const first = catalog.odds(granted, MATCH);
    expect(catalog.odds(granted, MATCH)).toBe(first);
    expect(JSON.parse(first.bytes.toString())).toEqual(book.snapshot('book', MATCH));
    book.selections = [book.selections[0], aSelection({ market_key: 'm2', price: 170 })];
    const changed = catalog.odds(granted, MATCH);
    expect(changed).not.toBe(first);
    expect(JSON.parse(changed.bytes.toString())).toEqual(book.snapshot('book', MATCH));
  });
});
