import { americanToDecimal } from './decimal-odds';

describe('americanToDecimal', () => {
  it.each([
    [150, 2.5],
    [100, 2],
    [-100, 2],
    [-110, 1.909],
    [-120, 1.833],
    [215, 3.15],
    [-278, 1.36],
    [-105, 1.952],
    [-64000, 1.002],
    [10000, 101],
  ])('%i → %d', (price, decimal) => {
    expect(americanToDecimal(price)).toBe(decimal);
  });

  it('rounds an exact half up and keeps exact thousandths', () => {
    // 1 + 100/1600 = 1.0625 exactly
    expect(americanToDecimal(-1600)).toBe(1.063);
    expect(americanToDecimal(-800)).toBe(1.125);
  });
});
