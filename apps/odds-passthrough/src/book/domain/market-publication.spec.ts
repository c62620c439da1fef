import { aMatchup, aSpread } from '../../../../../test/odds-passthrough/sportsbook-factory';
import type { UpstreamMarket } from '../../upstream';
import { newHeldMarket, newHeldMatch, newMatchPass } from './held-book';
import { resolveMarket } from './market-resolution';
import { publishResolved } from './market-publication';

const labels = new Map([
  [0, 'Match'],
  [1, '1st Half'],
]);
const NOW = 1_800_000_000_000;

/** A match with one market published from `first`; `next` publishes the market read again. */
function publishedOnce(first: UpstreamMarket) {
  const held = newHeldMatch(7, 29);
  const market = newHeldMarket(held, first);
  publishResolved(held, market, resolveMarket(aMatchup(), first, labels), false, newMatchPass(), NOW);
  const told = market.selections;
  const next = (wire: UpstreamMarket, locked = false, names = labels) => {
    const pass = newMatchPass();
    publishResolved(held, market, resolveMarket(aMatchup(), wire, names), locked, pass, NOW + 1);
    return { pass, version: market.version };
  };
  return { market, told, next };
}

describe('publishResolved', () => {
  it('keeps the version, and the selections it told, when a client would see no difference', () => {
    const { market, told, next } = publishedOnce(aSpread(-1.5));
    const { pass, version } = next(aSpread(-1.5, { version: 9 }));
    expect(version).toBe(NOW);
    expect(pass.selections).toEqual([]);
    expect(market.selections).toBe(told);
  });

  it('tells every visible difference with a greater version, the frame and the market holding the same selections', () => {
    const variants: [UpstreamMarket, boolean, Map<number, string>][] = [
      [aSpread(-1.5, { limits: [{ type: 'maxRiskStake', amount: 1 }] }), false, labels],
      [aSpread(-1.5, { cutoff_at: '2099-11-21T14:00:00Z' }), false, labels],
      [aSpread(-1.5, { period: 1 }), false, labels],
      [
        aSpread(-1.5, {
          prices: [
            { designation: 'home', points: -1.5, price: 220 },
            { designation: 'away', points: 1.5, price: -278 },
          ],
        }),
        false,
        labels,
      ],
      [aSpread(-1.5), true, labels],
      [aSpread(-1.5), false, new Map([[0, 'Full Time']])],
    ];
    for (const [wire, locked, names] of variants) {
      const { market, next } = publishedOnce(aSpread(-1.5));
      const { pass, version } = next(wire, locked, names);
      expect(version).toBe(NOW + 1);
      expect(pass.selections).toHaveLength(2);
      expect(pass.selections.every((s) => s.version === NOW + 1)).toBe(true);
      expect(market.selections).toEqual(pass.selections);
      expect(market.selections[0]).toBe(pass.selections[0]);
    }
  });
});
