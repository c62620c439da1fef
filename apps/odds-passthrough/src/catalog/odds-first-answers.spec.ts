import type { KeyRecord, Principal } from '@app/auth';
import { ManualClock } from '@app/clock';
import { aPrincipal, anOddsPrincipal } from '../../../../test/odds-passthrough/principal-factory';
import {
  ONE_MATCH as MATCH,
  ONE_MATCH_BOOK as BOOK,
  ONE_MATCH_SPORT as SPORT,
  OneMatchBook,
} from '../../../../test/odds-passthrough/one-match-book';
import { BookCatalogs } from './book-catalogs';
import { createBookController, oddsRouteAccess } from './book-controller.factory';
import { OddsAnswerFreshness } from './odds-answer-freshness';
import { ODDS_CONTENT_TYPE, OddsFirstAnswers } from './odds-first-answers';

const NOW = Date.UTC(2026, 0, 1);

function setup() {
  const catalogs = new BookCatalogs([BOOK], new OneMatchBook(), new OddsAnswerFreshness());
  return {
    catalogs,
    answers: new OddsFirstAnswers(
      [{ book: BOOK, requirement: oddsRouteAccess(createBookController(BOOK)) }],
      catalogs,
      new ManualClock(NOW),
    ),
  };
}

const principal = (overrides: Partial<KeyRecord>) => aPrincipal({ grants: { book: [SPORT] }, ...overrides });

describe('OddsFirstAnswers', () => {
  it('claims only the plain form of a book’s odds route: one match parameter holding an id', () => {
    const { answers } = setup();
    for (const url of [
      '/v1/book/odds?match=100',
      '/v1/book/odds?match=007',
      '/v1/book/odds?match=999999999999999',
    ]) {
      expect({ url, claimed: answers.claims(url) }).toEqual({ url, claimed: true });
    }
    for (const url of [
      '/v1/book/odds',
      '/v1/book/odds?',
      '/v1/book/odds?match=',
      '/v1/book/odds?match=1e3',
      '/v1/book/odds?match=-1',
      '/v1/book/odds?match=%31',
      '/v1/book/odds?match=1000000000000000',
      '/v1/book/odds?match=100&match=100',
      '/v1/book/odds?match=100&key=sk_x',
      '/v1/book/odds?key=sk_x&match=100',
      '/v1/book/odds/?match=100',
      '/V1/BOOK/ODDS?match=100',
      '/v1/other/odds?match=100',
      '/v1/book/matches?match=100',
    ]) {
      expect({ url, claimed: answers.claims(url) }).toEqual({ url, claimed: false });
    }
  });

  it("answers what the route answers with 200, under the route's path and content type", () => {
    const { answers, catalogs } = setup();
    const granted = anOddsPrincipal([SPORT]);
    const answer = answers.answer(`/v1/book/odds?match=${MATCH}`, granted);
    expect(answer).toEqual({
      json: catalogs.of(BOOK).odds(granted, MATCH),
      contentType: ODDS_CONTENT_TYPE,
      route: { path: '/v1/book/odds' },
    });
  });

  it("reads what the route demands from the book controller's decorators, as the guard does", () => {
    expect(oddsRouteAccess(createBookController(BOOK))).toEqual({
      scopeRules: [{ mode: 'all', scopes: ['odds'] }],
      sportsbook: 'book',
    });
  });

  it('answers nothing the route would refuse', () => {
    const { answers } = setup();
    const url = `/v1/book/odds?match=${MATCH}`;
    const refused: [string, Principal][] = [
      ['without the odds scope', principal({ scopes: ['fixtures'] })],
      ['without the sportsbook grant', principal({ grants: { other: [SPORT] } })],
      ['without the match’s sport', anOddsPrincipal([SPORT + 1])],
      ['expired', principal({ expiresAt: new Date(NOW) })],
      ['disabled', principal({ active: false })],
    ];
    for (const [why, key] of refused) {
      expect({ why, answer: answers.answer(url, key) }).toEqual({ why, answer: undefined });
    }
    expect(answers.answer(`/v1/book/odds?match=${MATCH + 1}`, anOddsPrincipal([SPORT]))).toBeUndefined();
  });
});
