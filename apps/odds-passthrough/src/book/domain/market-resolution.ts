import type { UpstreamMarket, UpstreamMatchup } from '../../upstream';
import { americanToDecimal } from './decimal-odds';
import { marketKeyOf } from './market-key';
import { betName, marketName, type PeriodLabels } from './market-naming';

/** One outcome of a resolved market, without the market-wide fields. */
export interface ResolvedOutcome {
  readonly bet_name: string;
  readonly line?: number;
  readonly price: number;
  readonly decimal: number;
}

/** Everything a client can see of a market except its version and time-dependent status. */
export interface ResolvedMarket {
  readonly marketKey: string;
  readonly name: string;
  readonly period: number;
  /** Whether the book has it open (market status, else its period's); a cutoff may still lock it. */
  readonly open: boolean;
  readonly cutoffAt: string;
  readonly cutoffMs: number;
  readonly limit: number;
  readonly outcomes: readonly ResolvedOutcome[];
}

/**
 * Flattens one book market against its matchup. A market without a status of its own
 * takes its period's; when the matchup lists no such period either it counts as not
 * open, since nothing says betting is allowed. A missing `maxRiskStake` gives limit 0.
 * The key and the names it builds go through `share` (a StringPool's), so the book holds
 * one copy of each.
 */
export function resolveMarket(
  matchup: UpstreamMatchup,
  market: UpstreamMarket,
  labels: PeriodLabels | undefined,
  share: (text: string) => string = asItIs,
): ResolvedMarket {
  const period = matchup.periods.find((p) => p.number === market.period);
  const status = market.status ?? period?.status;
  const cutoffAt = market.cutoff_at ?? period?.cutoff_at ?? matchup.start_time;
  const limit = market.limits.find((l) => l.type === 'maxRiskStake')?.amount ?? 0;
  const withLine = market.type !== 'moneyline';
  return {
    marketKey: share(marketKeyOf(market)),
    name: share(marketName(matchup, market, labels)),
    period: market.period,
    open: status === 'open',
    cutoffAt,
    cutoffMs: Date.parse(cutoffAt),
    limit,
    outcomes: market.prices.map((p): ResolvedOutcome => {
      const bet_name = share(betName(matchup, market, p));
      const decimal = americanToDecimal(p.price);
      // Two literals, not a spread of an optional part: one outcome per price per poll.
      return withLine && p.points !== undefined
        ? { bet_name, line: p.points, price: p.price, decimal }
        : { bet_name, price: p.price, decimal };
    }),
  };
}

function asItIs(text: string): string {
  return text;
}
