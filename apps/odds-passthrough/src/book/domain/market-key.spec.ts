import { aMoneyline, aSpread, aTotal } from '../../../../../test/odds-passthrough/sportsbook-factory';
import { marketKeyOf } from './market-key';

describe('marketKeyOf', () => {
  it('is the book key alone on a market without points', () => {
    expect(marketKeyOf(aMoneyline())).toBe('s;0;m');
  });

  it('adds the line set read from the prices, whatever their order', () => {
    const spread = aSpread(-1.5);
    const reversed = { ...spread, prices: [...spread.prices].reverse() };
    expect(marketKeyOf(spread)).toBe(marketKeyOf(reversed));
    expect(marketKeyOf(aSpread(-1.5))).not.toBe(marketKeyOf(aSpread(-2.5)));
    expect(marketKeyOf(aTotal(2.5))).toContain('2.5');
  });

  it('includes the line when the book key carries none (s;0;ou)', () => {
    const at25 = aTotal(2.5, { key: 's;0;ou' });
    const at35 = aTotal(3.5, { key: 's;0;ou' });
    expect(marketKeyOf(at25)).not.toBe(marketKeyOf(at35));
    expect(marketKeyOf(at25)).not.toBe('s;0;ou');
    expect(marketKeyOf(at25)).toBe(marketKeyOf(aTotal(2.5, { key: 's;0;ou', version: 99 })));
  });
});
