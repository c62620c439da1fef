import { anOddsPrincipal } from '../../../../test/odds-passthrough/principal-factory';
import {
  ONE_MATCH as MATCH,
  ONE_MATCH_BOOK as BOOK,
  ONE_MATCH_SPORT as SPORT,
  OneMatchBook,
} from '../../../../test/odds-passthrough/one-match-book';
import { aSelection } from '../../../../test/odds-passthrough/selection-factory';
import { BookCatalog } from './book-catalog';
import { OddsAnswerFreshness } from './odds-answer-freshness';

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

  it('gives the front door the answer `odds` gives, and nothing where `odds` refuses', () => {
    const catalog = new BookCatalog(new OneMatchBook(), BOOK, new OddsAnswerFreshness());
    expect(catalog.grantedOdds(granted, MATCH)).toBe(catalog.odds(granted, MATCH));
    expect(catalog.grantedOdds(granted, MATCH + 1)).toBeUndefined();
    expect(catalog.grantedOdds(anOddsPrincipal([SPORT + 1]), MATCH)).toBeUndefined();
  });
});
