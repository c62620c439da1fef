import {
  aMatchup,
  aMoneyline,
  aSpecial,
  aSpecialMarket,
  aSpread,
  aTeamTotal,
  aTotal,
} from '../../../../../test/odds-passthrough/sportsbook-factory';
import { resolveMarket } from './market-resolution';

const labels = new Map([
  [0, 'Match'],
  [1, '1st Half'],
]);

function betNames(market: ReturnType<typeof resolveMarket>): string[] {
  return market.outcomes.map((o) => o.bet_name);
}

describe('resolveMarket: names', () => {
  it('hands its key, market name and bet names to `share`, and keeps what it gives back', () => {
    const seen: string[] = [];
    const share = (text: string) => {
      seen.push(text);
      return text.toUpperCase();
    };
    const m = resolveMarket(aMatchup(), aTotal(2.5), labels, share);
    expect(seen).toEqual([m.marketKey.toLowerCase(), 'Match - Total', 'Over 2.5', 'Under 2.5']);
    expect(m.name).toBe('MATCH - TOTAL');
    expect(betNames(m)).toEqual(['OVER 2.5', 'UNDER 2.5']);
  });

  it('money line: team names and Draw, no line', () => {
    const m = resolveMarket(aMatchup(), aMoneyline(), labels);
    expect(m.name).toBe('Match - Money Line');
    expect(betNames(m)).toEqual(['Arsenal', 'Chelsea', 'Draw']);
    expect(m.outcomes.map((o) => o.line)).toEqual([undefined, undefined, undefined]);
    expect(m.outcomes.map((o) => o.decimal)).toEqual([2.5, 2.9, 3.4]);
  });

  it('money line priced by participant id resolves the participant', () => {
    const market = aMoneyline({
      prices: [
        { participant_id: 1601234568, price: 150 },
        { participant_id: 1601234569, price: 190 },
      ],
    });
    expect(betNames(resolveMarket(aMatchup(), market, labels))).toEqual(['Arsenal', 'Chelsea']);
  });

  it('handicap: team and signed line, zero written 0, each side its own line', () => {
    const m = resolveMarket(aMatchup(), aSpread(-1.5), labels);
    expect(m.name).toBe('Match - Handicap');
    expect(betNames(m)).toEqual(['Arsenal -1.5', 'Chelsea +1.5']);
    expect(m.outcomes.map((o) => o.line)).toEqual([-1.5, 1.5]);
    expect(betNames(resolveMarket(aMatchup(), aSpread(0), labels))).toEqual(['Arsenal 0', 'Chelsea 0']);
  });

  it('total: Over/Under and the line', () => {
    const m = resolveMarket(aMatchup(), aTotal(2.5, { period: 1 }), labels);
    expect(m.name).toBe('1st Half - Total');
    expect(betNames(m)).toEqual(['Over 2.5', 'Under 2.5']);
    expect(m.outcomes.map((o) => o.line)).toEqual([2.5, 2.5]);
  });

  it('team total names the team in the market name', () => {
    expect(resolveMarket(aMatchup(), aTeamTotal('home'), labels).name).toBe('Match - Team Total - Arsenal');
    const away = resolveMarket(aMatchup(), aTeamTotal('away', 0.5), labels);
    expect(away.name).toBe('Match - Team Total - Chelsea');
    expect(betNames(away)).toEqual(['Over 0.5', 'Under 0.5']);
  });

  it('special: the description as market name, participants as outcomes', () => {
    const m = resolveMarket(aSpecial(), aSpecialMarket(), labels);
    expect(m.name).toBe('Arsenal v Chelsea - First Goalscorer');
    expect(betNames(m)).toEqual(['Bukayo Saka', 'Cole Palmer']);
  });

  it('unresolved participants fall back to the raw designation, else the id, never empty', () => {
    const market = aSpecialMarket({
      prices: [
        { participant_id: 42, designation: 'field', price: 900 },
        { participant_id: 43, price: 1000 },
        { designation: 'home', price: 300 },
      ],
    });
    const special = aSpecial();
    const noName = aMatchup({ participants: [{ id: 7, alignment: 'home', name: '' }] });
    expect(betNames(resolveMarket(special, market, labels))).toEqual(['field', '43', 'home']);
    expect(betNames(resolveMarket(noName, aMoneyline(), labels))).toEqual(['home', 'away', 'Draw']);
    expect(resolveMarket(noName, aTeamTotal('away'), labels).name).toBe('Match - Team Total - away');
  });

  it('uses Period <n> until the label table is loaded, or for a period it lacks', () => {
    expect(resolveMarket(aMatchup(), aMoneyline(), undefined).name).toBe('Period 0 - Money Line');
    expect(resolveMarket(aMatchup(), aTotal(2.5, { period: 6 }), labels).name).toBe('Period 6 - Total');
  });
});

describe('resolveMarket: status, cutoff, limit', () => {
  it('takes the market status first', () => {
    expect(resolveMarket(aMatchup(), aMoneyline({ status: 'suspended' }), labels).open).toBe(false);
    const closedPeriod = aMatchup({ periods: [{ number: 0, status: 'closed' }] });
    expect(resolveMarket(closedPeriod, aMoneyline({ status: 'open' }), labels).open).toBe(true);
  });

  it('falls back to the status of the period with the same number', () => {
    const matchup = aMatchup({
      periods: [
        { number: 0, status: 'open' },
        { number: 1, status: 'suspended' },
      ],
    });
    expect(resolveMarket(matchup, aMoneyline({ status: undefined }), labels).open).toBe(true);
    expect(resolveMarket(matchup, aMoneyline({ status: undefined, period: 1 }), labels).open).toBe(false);
    expect(resolveMarket(matchup, aMoneyline({ status: undefined, period: 3 }), labels).open).toBe(false);
  });

  it('cutoff: the market, else its period, else the start time', () => {
    const matchup = aMatchup({
      start_time: '2026-11-21T15:00:00Z',
      periods: [
        { number: 0, status: 'open', cutoff_at: '2026-11-21T14:55:00Z' },
        { number: 1, status: 'open' },
      ],
    });
    const own = resolveMarket(matchup, aMoneyline({ cutoff_at: '2026-11-21T14:50:00Z' }), labels);
    expect(own.cutoffAt).toBe('2026-11-21T14:50:00Z');
    expect(own.cutoffMs).toBe(Date.parse('2026-11-21T14:50:00Z'));
    expect(resolveMarket(matchup, aMoneyline({ cutoff_at: undefined }), labels).cutoffAt).toBe(
      '2026-11-21T14:55:00Z',
    );
    expect(resolveMarket(matchup, aMoneyline({ cutoff_at: undefined, period: 1 }), labels).cutoffAt).toBe(
      '2026-11-21T15:00:00Z',
    );
  });

  it('limit is the maxRiskStake amount, 0 when the book gives none', () => {
    const limits = [
      { type: 'maxWin', amount: 100 },
      { type: 'maxRiskStake', amount: 2500 },
    ];
    expect(resolveMarket(aMatchup(), aMoneyline({ limits }), labels).limit).toBe(2500);
    expect(resolveMarket(aMatchup(), aMoneyline({ limits: [] }), labels).limit).toBe(0);
  });
});
