import type { Selection } from './domain/selection';
import type { StringPool } from './domain/string-pool';
import { SharedStrings } from './shared-strings';

/** A selection as JSON.parse gives it: every string its own copy. */
function parsed(betName: string): Selection {
  return JSON.parse(
    JSON.stringify({
      market_key: 's;0;ou;2.5@2.5',
      market_name: 'Total',
      period: 0,
      bet_name: betName,
      line: 2.5,
      price: -110,
      decimal: 1.909,
      status: 'unlocked',
      version: 1_763_726_400_000,
      cutoff_at: '2099-01-01T12:00:00Z',
      limit: 5000,
    }),
  ) as Selection;
}

describe('SharedStrings', () => {
  it('leaves every value as it was', () => {
    const selections = [parsed('Over 2.5'), parsed('Under 2.5')];
    const before = JSON.stringify(selections);
    expect(JSON.stringify(new SharedStrings().shareMarket('s;0;ou;2.5@2.5', selections))).toBe(before);
  });

  it('gives equal strings of different markets one copy, and every selection of a market its key', () => {
    const strings = new SharedStrings();
    const key = 's;0;ou;2.5@2.5';
    const [first] = strings.shareMarket(key, [parsed('Over 2.5')]);
    const [second] = strings.shareMarket('s;0;ou;2.5@2.5', [parsed('Over 2.5')]);
    expect(first.market_key).toBe(key);
    // Identity cannot be observed on strings from JavaScript; the pool's answers can.
    const pool = (strings as unknown as { pool: StringPool }).pool;
    expect(pool.size).toBe(4);
    for (const text of ['2099-01-01T12:00:00Z', 'Over 2.5', 'Total', 'unlocked'])
      expect(pool.has(text)).toBe(true);
    expect(second).toEqual(first);
  });

  it('starts afresh once it holds its most distinct strings, still answering equal values', () => {
    const strings = new SharedStrings();
    for (let i = 0; i < 60_000; i++) strings.shareMarket(`k${i}`, [parsed(`Over ${i}.5`)]);
    const pool = (strings as unknown as { pool: StringPool }).pool;
    expect(pool.size).toBeLessThanOrEqual(50_000);
    expect(strings.shareMarket('k', [parsed('Over 1.5')])[0].bet_name).toBe('Over 1.5');
  });
});
