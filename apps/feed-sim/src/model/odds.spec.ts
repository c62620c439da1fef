import { americanPrice } from './odds';

describe('americanPrice', () => {
  it('never answers a price strictly between -100 and +100', () => {
    for (let p = 0.001; p < 1; p += 0.001) {
      const price = americanPrice(p);
      expect(Number.isInteger(price)).toBe(true);
      expect(price <= -100 || price >= 100).toBe(true);
    }
  });

  it('prices favourites negative and outsiders positive', () => {
    expect(americanPrice(0.8)).toBeLessThan(-100);
    expect(americanPrice(0.2)).toBeGreaterThan(100);
  });
});
