import type {
  UpstreamMarket,
  UpstreamMatchup,
  UpstreamPrice,
} from '../../apps/odds-passthrough/src/upstream/sportsbook.types';

/*
 * Small factories of valid sportsbook wire objects, for tests: each returns the
 * contract's example shape, with overrides.
 */

export function aMatchup(overrides: Partial<UpstreamMatchup> = {}): UpstreamMatchup {
  return {
    id: 1601234567,
    league_id: 1980,
    type: 'matchup',
    parent_id: null,
    is_live: false,
    start_time: '2026-11-21T15:00:00Z',
    version: 12,
    participants: [
      { id: 1601234568, alignment: 'home', name: 'Arsenal' },
      { id: 1601234569, alignment: 'away', name: 'Chelsea' },
    ],
    periods: [
      { number: 0, status: 'open', cutoff_at: '2026-11-21T15:00:00Z' },
      { number: 1, status: 'open', cutoff_at: '2026-11-21T15:00:00Z' },
    ],
    ...overrides,
  };
}

export function aSpecial(overrides: Partial<UpstreamMatchup> = {}): UpstreamMatchup {
  return aMatchup({
    id: 1601239999,
    type: 'special',
    special: { description: 'Arsenal v Chelsea - First Goalscorer' },
    participants: [
      { id: 1601240001, alignment: 'neutral', name: 'Bukayo Saka' },
      { id: 1601240002, alignment: 'neutral', name: 'Cole Palmer' },
    ],
    ...overrides,
  });
}

function market(
  type: UpstreamMarket['type'],
  key: string,
  prices: UpstreamPrice[],
  overrides: Partial<UpstreamMarket>,
): UpstreamMarket {
  return {
    matchup_id: 1601234567,
    key,
    type,
    period: 0,
    is_alternate: false,
    status: 'open',
    cutoff_at: '2026-11-21T15:00:00Z',
    version: 1,
    limits: [{ type: 'maxRiskStake', amount: 5000 }],
    prices,
    ...overrides,
  };
}

export function aMoneyline(overrides: Partial<UpstreamMarket> = {}): UpstreamMarket {
  return market(
    'moneyline',
    's;0;m',
    [
      { designation: 'home', price: 150 },
      { designation: 'away', price: 190 },
      { designation: 'draw', price: 240 },
    ],
    overrides,
  );
}

export function aSpread(line = -1.5, overrides: Partial<UpstreamMarket> = {}): UpstreamMarket {
  return market(
    'spread',
    `s;0;s;${line}`,
    [
      { designation: 'home', points: line, price: 215 },
      { designation: 'away', points: -line, price: -278 },
    ],
    { is_alternate: true, ...overrides },
  );
}

export function aTotal(line = 2.5, overrides: Partial<UpstreamMarket> = {}): UpstreamMarket {
  return market(
    'total',
    `s;0;ou;${line}`,
    [
      { designation: 'over', points: line, price: -110 },
      { designation: 'under', points: line, price: -120 },
    ],
    overrides,
  );
}

export function aTeamTotal(
  side: 'home' | 'away' = 'home',
  line = 1.5,
  overrides: Partial<UpstreamMarket> = {},
): UpstreamMarket {
  return market(
    'team_total',
    `s;0;tt;${line};${side}`,
    [
      { designation: 'over', points: line, price: 105 },
      { designation: 'under', points: line, price: -125 },
    ],
    { side, ...overrides },
  );
}

export function aSpecialMarket(overrides: Partial<UpstreamMarket> = {}): UpstreamMarket {
  return market(
    'moneyline',
    's;0;m',
    [
      { participant_id: 1601240001, price: 450 },
      { participant_id: 1601240002, price: 500 },
    ],
    { matchup_id: 1601239999, ...overrides },
  );
}
