/**
 * Decimal odds of an American price, rounded half up to 3 decimals
 * (+150 → 2.5, +100 → 2, -110 → 1.909, -120 → 1.833).
 * Computed from integers with a single division so no binary fraction tips a rounding.
 */
export function americanToDecimal(price: number): number {
  if (price >= 0) return (price + 100) / 100;
  const stake = -price;
  return Math.round(((stake + 100) * 1000) / stake) / 1000;
}
