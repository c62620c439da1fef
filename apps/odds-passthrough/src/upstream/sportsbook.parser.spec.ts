import { drain } from '../common/work-in-parts';
import {
  marketsDeltaInParts,
  marketsFullInParts,
  normaliseTime,
  parseLeagues,
  parseMarketsDelta,
  parseMarketsFull,
  parseMatchups,
  parsePeriodLabels,
  parseSports,
} from './sportsbook.parser';
import {
  aMatchup,
  aMoneyline,
  aSpecial,
  aSpread,
  aTeamTotal,
} from '../../../../test/odds-passthrough/sportsbook-factory';
import type { ParseResult } from './sportsbook.types';

function errorOf<T>(result: ParseResult<T>): string {
  if (result.ok) throw new Error(`expected a parse error, got ${JSON.stringify(result.value)}`);
  return result.error;
}

function valueOf<T>(result: ParseResult<T>): T {
  if (!result.ok) throw new Error(`expected a value, got error ${result.error}`);
  return result.value;
}

/** A deep copy that can be freely broken by a test. */
function wire(value: unknown): Record<string, unknown> {
  return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
}

describe('normaliseTime', () => {
  it.each([
    ['2026-11-21T15:00:00Z', '2026-11-21T15:00:00Z'],
    ['2026-11-21T15:00:00.123Z', '2026-11-21T15:00:00Z'],
    ['2026-11-21T16:30:00+01:30', '2026-11-21T15:00:00Z'],
    ['2026-11-21T10:00:00.999999-05:00', '2026-11-21T15:00:00Z'],
    ['2026-11-21t15:00:00z', '2026-11-21T15:00:00Z'],
    ['2026-12-31T23:30:00-01:00', '2027-01-01T00:30:00Z'],
  ])('%s → %s', (input, expected) => {
    expect(normaliseTime(input)).toBe(expected);
  });

  it.each(['2026-11-21', '2026-11-21T15:00:00', '2026-02-30T10:00:00Z', '2026-11-21T24:00:00Z', 'soon', ''])(
    'rejects %p',
    (input) => {
      expect(normaliseTime(input)).toBeUndefined();
    },
  );
});

describe('sportsbook parsers', () => {
  it('reads sports, label tables and leagues', () => {
    expect(valueOf(parseSports([{ id: 29, name: 'Soccer', extra: true }]))).toEqual([
      { id: 29, name: 'Soccer' },
    ]);
    expect(valueOf(parsePeriodLabels([{ number: 0, description: 'Match' }]))).toEqual([
      { number: 0, description: 'Match' },
    ]);
    expect(valueOf(parsePeriodLabels([]))).toEqual([]);
    expect(valueOf(parseLeagues([{ id: 1980, name: 'England - Premier League' }]))).toEqual([
      { id: 1980, name: 'England - Premier League' },
    ]);
  });

  it('reads matchups and specials, normalising their times', () => {
    const body = [{ ...wire(aMatchup()), start_time: '2026-11-21T16:00:00+01:00' }, wire(aSpecial())];
    const [matchup, special] = valueOf(parseMatchups(body));
    expect(matchup).toEqual(aMatchup({ start_time: '2026-11-21T15:00:00Z' }));
    expect(special.special).toEqual({ description: 'Arsenal v Chelsea - First Goalscorer' });
  });

  it('accepts a period without a cutoff and a missing parent_id', () => {
    const body = wire(aMatchup());
    delete body.parent_id;
    body.periods = [{ number: 0, status: 'suspended' }];
    const [matchup] = valueOf(parseMatchups([body]));
    expect(matchup.parent_id).toBeNull();
    expect(matchup.periods).toEqual([{ number: 0, status: 'suspended' }]);
  });

  it('reads full and delta market answers', () => {
    const full = valueOf(
      parseMarketsFull({ last: 918273, markets: [wire(aSpread()), wire(aTeamTotal('away'))] }),
    );
    expect(full).toEqual({ last: 918273, markets: [aSpread(), aTeamTotal('away')] });
    const delta = valueOf(
      parseMarketsDelta({
        last: 918301,
        markets: [wire(aMoneyline())],
        withdrawn: [{ matchup_id: 1601234567, key: 's;0;ou;2.5' }],
      }),
    );
    expect(delta).toEqual({
      last: 918301,
      markets: [aMoneyline()],
      withdrawn: [{ matchup_id: 1601234567, key: 's;0;ou;2.5' }],
    });
  });

  it('keeps a market without status or cutoff, and normalises a market cutoff', () => {
    const body = wire(aMoneyline());
    delete body.status;
    body.cutoff_at = '2026-11-21T15:00:00.5Z';
    const [m] = valueOf(parseMarketsFull({ last: 1, markets: [body] })).markets;
    expect(m.status).toBeUndefined();
    expect(m.cutoff_at).toBe('2026-11-21T15:00:00Z');
    delete body.cutoff_at;
    expect(valueOf(parseMarketsFull({ last: 1, markets: [body] })).markets[0].cutoff_at).toBeUndefined();
  });

  it('gives markets with equal limits one shared list, and markets with other limits their own', () => {
    const limits = (amount: number) => [
      { type: 'maxRiskStake', amount },
      { type: 'maxWin', amount: 9000 },
    ];
    const [a, b, c, d] = valueOf(
      parseMarketsFull({
        last: 1,
        markets: [
          wire(aMoneyline({ limits: limits(5000) })),
          wire(aSpread(-0.5, { limits: limits(5000) })),
          wire(aMoneyline({ limits: limits(250) })),
          { ...wire(aMoneyline()), limits: undefined },
        ],
      }),
    ).markets;
    expect(a.limits).toEqual(limits(5000));
    expect(b.limits).toBe(a.limits);
    expect(c.limits).toEqual(limits(250));
    expect(c.limits).not.toBe(a.limits);
    expect(d.limits).toEqual([]);
  });

  it('rejects prices that are not integers or lie between -100 and +100', () => {
    for (const price of [-110.5, '150', 50, -99, 0, null]) {
      const body = wire(aMoneyline());
      (body.prices as Record<string, unknown>[])[0].price = price;
      expect(errorOf(parseMarketsFull({ last: 1, markets: [body] }))).toContain('markets[0].prices[0].price');
    }
    for (const price of [100, -100]) {
      const body = wire(aMoneyline());
      (body.prices as Record<string, unknown>[])[0].price = price;
      expect(valueOf(parseMarketsFull({ last: 1, markets: [body] })).markets[0].prices[0].price).toBe(price);
    }
  });

  it('names the faulty field of a wrong shape', () => {
    const noSide = wire(aTeamTotal());
    delete noSide.side;
    const special = wire(aSpecial());
    delete special.special;
    const badType = { ...wire(aSpread()), type: 'asian' };
    const unnamed = wire(aMoneyline());
    unnamed.prices = [{ price: 150 }];
    expect(errorOf(parseMarketsFull({ last: 1, markets: [noSide] }))).toContain('markets[0].side');
    expect(errorOf(parseMatchups([special]))).toContain('matchups[0].special');
    expect(errorOf(parseMarketsFull({ last: 1, markets: [badType] }))).toContain('markets[0].type');
    expect(errorOf(parseMarketsFull({ last: 1, markets: [unnamed] }))).toContain(
      'designation or a participant_id',
    );
    expect(errorOf(parseMatchups([{ ...wire(aMatchup()), start_time: 'tomorrow' }]))).toContain('start_time');
    expect(errorOf(parseMarketsDelta({ last: 2, markets: [], withdrawn: [{ key: 'x' }] }))).toContain(
      'withdrawn[0].matchup_id',
    );
  });

  it.each([null, undefined, 'garbage', 42, {}, [null], [[]], { last: '1', markets: [] }])(
    'reports %p as a fault from every parser without throwing',
    (body) => {
      for (const parse of [parseSports, parsePeriodLabels, parseLeagues, parseMatchups]) {
        expect(parse(body).ok).toBe(false);
      }
      expect(parseMarketsFull(body).ok).toBe(false);
      expect(parseMarketsDelta(body).ok).toBe(false);
    },
  );
});

describe('market answers read in parts', () => {
  /** Steps a parted read to its end; answers its result and how many times it yielded. */
  function stepped<T>(parts: Generator<void, T, void>): { result: T; yields: number } {
    let yields = 0;
    for (;;) {
      const step = parts.next();
      if (step.done) return { result: step.value, yields };
      yields++;
    }
  }

  const manyMarkets = (): Record<string, unknown>[] =>
    Array.from({ length: 5_000 }, () => wire(aMoneyline()));

  it('reads 5,000 markets in several parts, to what the one-go parse answers', () => {
    const full = { last: 7, markets: manyMarkets() };
    const { result, yields } = stepped(marketsFullInParts(full));
    expect(yields).toBeGreaterThan(1);
    expect(result).toEqual(parseMarketsFull(full));
    const delta = { ...full, withdrawn: [{ matchup_id: 1, key: 's;0;m' }] };
    expect(stepped(marketsDeltaInParts(delta)).result).toEqual(parseMarketsDelta(delta));
  });

  it('names a faulty market by its index across parts, and checks `last` first, as the one-go parse does', () => {
    const markets = manyMarkets();
    markets[4_321].version = 'x';
    expect(errorOf(drain(marketsFullInParts({ last: 7, markets })))).toBe(
      'markets[4321].version: expected an integer',
    );
    expect(errorOf(drain(marketsFullInParts({ last: 'x', markets })))).toBe('last: expected an integer');
    expect(errorOf(drain(marketsDeltaInParts({ last: 7, markets, withdrawn: [{}] })))).toBe(
      'markets[4321].version: expected an integer',
    );
    expect(errorOf(drain(marketsDeltaInParts({ last: 7, markets: [], withdrawn: [{}] })))).toBe(
      'withdrawn[0].matchup_id: expected an integer',
    );
  });
});
