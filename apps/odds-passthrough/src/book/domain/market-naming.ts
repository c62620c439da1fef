import type {
  UpstreamMarket,
  UpstreamMarketType,
  UpstreamMatchup,
  UpstreamParticipant,
  UpstreamPrice,
} from '../../upstream';

const MARKET_LABELS: Record<UpstreamMarketType, string> = {
  moneyline: 'Money Line',
  spread: 'Handicap',
  total: 'Total',
  team_total: 'Team Total',
};

/** Period number → description, for one sport; undefined while the table has not loaded. */
export type PeriodLabels = ReadonlyMap<number, string>;

export function periodDescription(period: number, labels: PeriodLabels | undefined): string {
  return labels?.get(period) ?? `Period ${period}`;
}

function participantByAlignment(
  matchup: UpstreamMatchup,
  alignment: string,
): UpstreamParticipant | undefined {
  return matchup.participants.find((p) => p.alignment === alignment);
}

/** `<period description> - <market label>`, the team named on a team total, a special's own description. */
export function marketName(
  matchup: UpstreamMatchup,
  market: Pick<UpstreamMarket, 'type' | 'period' | 'side'>,
  labels: PeriodLabels | undefined,
): string {
  if (matchup.special !== undefined) return matchup.special.description;
  const base = `${periodDescription(market.period, labels)} - ${MARKET_LABELS[market.type]}`;
  if (market.type !== 'team_total' || market.side === undefined) return base;
  const team = participantByAlignment(matchup, market.side)?.name || market.side;
  return `${base} - ${team}`;
}

const DESIGNATION_WORDS: Record<string, string> = { draw: 'Draw', over: 'Over', under: 'Under' };

/**
 * The outcome's name: a participant id resolves to that participant, `home`/`away` to the
 * team so aligned; otherwise the raw designation, else the id as a string. Never empty.
 */
export function outcomeName(matchup: UpstreamMatchup, price: UpstreamPrice): string {
  if (price.participant_id !== undefined) {
    const named = matchup.participants.find((p) => p.id === price.participant_id)?.name;
    if (named) return named;
  }
  const designation = price.designation;
  if (designation) {
    const word = DESIGNATION_WORDS[designation];
    if (word !== undefined) return word;
    if (designation === 'home' || designation === 'away') {
      return participantByAlignment(matchup, designation)?.name || designation;
    }
    return designation;
  }
  return String(price.participant_id);
}

/** A line as written after a team name: `+1.5`, `-1.5`, and a zero line as `0`. */
export function signedLine(points: number): string {
  if (points > 0) return `+${points}`;
  if (points < 0) return String(points);
  return '0';
}

/** bet_name by market type; the outcome text alone on money lines and specials' outcomes. */
export function betName(
  matchup: UpstreamMatchup,
  market: Pick<UpstreamMarket, 'type'>,
  price: UpstreamPrice,
): string {
  const name = outcomeName(matchup, price);
  if (price.points === undefined) return name;
  switch (market.type) {
    case 'moneyline':
      return name;
    case 'spread':
      return `${name} ${signedLine(price.points)}`;
    case 'total':
    case 'team_total':
      return `${name} ${price.points}`;
  }
}
