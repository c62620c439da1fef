import type { UpstreamMarket } from '../../upstream';

/**
 * Our market_key: the book's key plus the market's line set, read from the prices'
 * points. Some book keys carry no line (`s;0;ou`), so a line move under the same book
 * key must still produce another market_key. The key only depends on the market itself,
 * so it is the same across polls and restarts.
 */
export function marketKeyOf(market: Pick<UpstreamMarket, 'key' | 'prices'>): string {
  const points: number[] = [];
  for (const p of market.prices) {
    if (p.points !== undefined && !points.includes(p.points)) points.push(p.points);
  }
  if (points.length === 0) return market.key;
  points.sort((a, b) => a - b);
  return `${market.key}@${points.join('/')}`;
}
