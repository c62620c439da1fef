import {
  aMatchup,
  aMoneyline,
  aSpecial,
  aSpecialMarket,
  aSpread,
  aTeamTotal,
  aTotal,
} from './sportsbook-factory';
import type { FakeSportsbook } from '../support/fake-sportsbook';

export const SOCCER = 29;
export const TENNIS = 33;
export const MATCH = 1601234567;
export const SPECIAL = 1601239999;
export const TENNIS_MATCH = 1700000001;

/** Cutoffs far enough ahead that nothing locks unless a test moves time or the book says so. */
export const FUTURE = '2099-01-01T12:00:00Z';

export const SOCCER_LABELS = [
  { number: 0, description: 'Match' },
  { number: 1, description: '1st Half' },
];

/** A small book: soccer (a match and a special) and tennis, every market type. */
export function seedBook(book: FakeSportsbook): void {
  book.setSports([
    { id: TENNIS, name: 'Tennis' },
    { id: SOCCER, name: 'Soccer' },
  ]);
  book.setLabels(SOCCER, SOCCER_LABELS);
  book.setLabels(TENNIS, [{ number: 0, description: 'Match' }]);
  book.setLeagues(SOCCER, [{ id: 1980, name: 'England - Premier League' }]);
  book.setLeagues(TENNIS, [{ id: 5000, name: 'ATP Vienna' }]);
  const periods = [
    { number: 0, status: 'open', cutoff_at: FUTURE },
    { number: 1, status: 'open', cutoff_at: FUTURE },
  ];
  book.putMatchup(SOCCER, aMatchup({ start_time: FUTURE, periods }));
  book.putMatchup(SOCCER, aSpecial({ start_time: FUTURE, periods }));
  book.putMatchup(
    TENNIS,
    aMatchup({
      id: TENNIS_MATCH,
      league_id: 5000,
      start_time: FUTURE,
      participants: [
        { id: 1, alignment: 'home', name: 'Sinner' },
        { id: 2, alignment: 'away', name: 'Alcaraz' },
      ],
      periods,
    }),
  );
  book.putMarket(SOCCER, aMoneyline({ cutoff_at: FUTURE }));
  book.putMarket(SOCCER, aSpread(-1.5, { cutoff_at: FUTURE }));
  book.putMarket(SOCCER, aTotal(2.5, { cutoff_at: FUTURE }));
  book.putMarket(SOCCER, aTeamTotal('home', 1.5, { cutoff_at: FUTURE }));
  book.putMarket(SOCCER, aSpecialMarket({ cutoff_at: FUTURE }));
  book.putMarket(TENNIS, tennisMoneylineWithHomePrice(-120));
}

/** The tennis match's moneyline with `price` for the home player. */
export function tennisMoneylineWithHomePrice(price: number) {
  return aMoneyline({
    matchup_id: TENNIS_MATCH,
    cutoff_at: FUTURE,
    prices: [
      { designation: 'home', price },
      { designation: 'away', price: 100 },
    ],
  });
}

/** The match's moneyline with `price` for the home side, so each price set is a visible change. */
export function moneylineWithHomePrice(price: number) {
  return aMoneyline({
    cutoff_at: FUTURE,
    prices: [
      { designation: 'home', price },
      { designation: 'away', price: 180 },
      { designation: 'draw', price: 240 },
    ],
  });
}
