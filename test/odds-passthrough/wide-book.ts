import { aMatchup, aTotal } from './sportsbook-factory';
import type { FakeSportsbook } from '../support/fake-sportsbook';

/**
 * A wide soccer book for load (the slow-consumer fault test, the odds stream
 * benchmark): `matches` matchups of two-way totals, each total's over price
 * set by the caller so every change is visible and identifiable.
 */
export const WIDE_SPORT = 29;
const FUTURE = '2099-01-01T12:00:00Z';

export const wideMatchId = (m: number): number => 1_700_000_000 + m;

/** Total number `k` of match `m` (line k + 0.5) with the over at `price`. */
export function wideTotal(m: number, k: number, price: number) {
  return aTotal(k + 0.5, {
    matchup_id: wideMatchId(m),
    cutoff_at: FUTURE,
    prices: [
      { designation: 'over', points: k + 0.5, price },
      { designation: 'under', points: k + 0.5, price: -price },
    ],
  });
}

export function seedWideBook(book: FakeSportsbook, matches: number, marketsPerMatch: number): void {
  book.setSports([{ id: WIDE_SPORT, name: 'Soccer' }]);
  book.setLabels(WIDE_SPORT, [{ number: 0, description: 'Match' }]);
  book.setLeagues(WIDE_SPORT, [{ id: 1980, name: 'Wide League' }]);
  for (let m = 0; m < matches; m++) {
    book.putMatchup(
      WIDE_SPORT,
      aMatchup({
        id: wideMatchId(m),
        start_time: FUTURE,
        participants: [
          { id: wideMatchId(m) * 10 + 1, alignment: 'home', name: `Home ${m}` },
          { id: wideMatchId(m) * 10 + 2, alignment: 'away', name: `Away ${m}` },
        ],
        periods: [{ number: 0, status: 'open', cutoff_at: FUTURE }],
      }),
    );
    for (let k = 0; k < marketsPerMatch; k++) book.putMarket(WIDE_SPORT, wideTotal(m, k, 110));
  }
}
