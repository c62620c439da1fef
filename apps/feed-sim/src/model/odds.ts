/** Bookmaker's margin spread over the outcomes of a market. */
const MARGIN = 1.045;

/**
 * American odds for a fair probability after the margin: favourites negative,
 * underdogs positive, never strictly between -100 and +100.
 */
export function americanPrice(probability: number): number {
  const p = Math.min(0.97, Math.max(0.02, probability * MARGIN));
  if (p >= 0.5) return -Math.max(100, Math.round((100 * p) / (1 - p)));
  return Math.max(100, Math.round((100 * (1 - p)) / p));
}

/** Moves a probability a little, in log-odds, so it stays inside (0, 1). */
export function nudge(probability: number, step: number): number {
  const logit = Math.log(probability / (1 - probability)) + step;
  return Math.min(0.95, Math.max(0.05, 1 / (1 + Math.exp(-logit))));
}

/** Shares of a set of probabilities nudged independently, summing to 1 again. */
export function normalise(probabilities: number[]): number[] {
  const total = probabilities.reduce((sum, p) => sum + p, 0);
  return probabilities.map((p) => p / total);
}
