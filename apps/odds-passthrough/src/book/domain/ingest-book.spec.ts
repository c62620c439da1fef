import type { UpstreamMarket, UpstreamMatchup } from '../../upstream';
import {
  aMatchup,
  aMoneyline,
  aSpecial,
  aSpecialMarket,
  aSpread,
  aTeamTotal,
  aTotal,
} from '../../../../../test/odds-passthrough/sportsbook-factory';
import type { BookChange } from './match-odds';
import type { BookDiff, SeedMatch } from './book-diff';
import { IngestBook } from './ingest-book';
import * as resolution from './market-resolution';
import type { Selection } from './selection';

/** A delta that changes no market: the poll only re-lists matchups. */
const NO_MARKET_CHANGES = { markets: [], withdrawn: [] };

const SOCCER = 29;
const MATCH = 1601234567;
const SPECIAL = 1601239999;
const LEAGUES = [{ id: 1980, name: 'England - Premier League' }];
const LABELS = [
  { number: 0, description: 'Match' },
  { number: 1, description: '1st Half' },
];
const T0 = Date.parse('2026-11-21T12:00:00Z');
const CUTOFF = Date.parse('2026-11-21T15:00:00Z');

function full(
  state: IngestBook,
  markets: UpstreamMarket[],
  now: number,
  matchups: UpstreamMatchup[] = [aMatchup()],
): BookDiff {
  return state.applyFull(SOCCER, { leagues: LEAGUES, matchups, markets }, now);
}

function changeOf(diff: BookDiff, matchId = MATCH): BookChange {
  const change = diff.changes.find((c) => c.matchId === matchId);
  if (!change) throw new Error(`no change for match ${matchId} in ${JSON.stringify(diff)}`);
  return change;
}

function byKey(selections: readonly Selection[]): Map<string, Selection[]> {
  const out = new Map<string, Selection[]>();
  for (const s of selections) out.set(s.market_key, [...(out.get(s.market_key) ?? []), s]);
  return out;
}

function only(selections: readonly Selection[]): Selection[] {
  const markets = [...byKey(selections).values()];
  expect(markets).toHaveLength(1);
  return markets[0];
}

function labelled(): IngestBook {
  const state = new IngestBook('book');
  state.applyLabels(SOCCER, LABELS, T0);
  return state;
}

describe('IngestBook: flattening', () => {
  it('publishes every market type of a new match with all public fields', () => {
    const state = labelled();
    const diff = full(state, [aMoneyline(), aSpread(-1.5), aTotal(2.5), aTeamTotal('home', 1.5)], T0);
    const change = changeOf(diff);
    expect(change).toMatchObject({
      book: 'book',
      sportId: SOCCER,
      ts: T0,
      matchAdded: true,
      matchRemoved: false,
    });
    expect(change.removedMarketKeys).toEqual([]);
    const markets = byKey(change.selections);
    expect(markets.size).toBe(4);
    const spread = markets.get(state.matchOdds(MATCH, T0)!.selections[3].market_key)!;
    expect(spread).toEqual([
      {
        market_key: spread[0].market_key,
        market_name: 'Match - Handicap',
        period: 0,
        bet_name: 'Arsenal -1.5',
        line: -1.5,
        price: 215,
        decimal: 3.15,
        status: 'unlocked',
        version: T0,
        cutoff_at: '2026-11-21T15:00:00Z',
        limit: 5000,
      },
      expect.objectContaining({ bet_name: 'Chelsea +1.5', line: 1.5, price: -278, decimal: 1.36 }),
    ]);
    const names = change.selections.map((s) => `${s.market_name}: ${s.bet_name}`);
    expect(names).toEqual([
      'Match - Money Line: Arsenal',
      'Match - Money Line: Chelsea',
      'Match - Money Line: Draw',
      'Match - Handicap: Arsenal -1.5',
      'Match - Handicap: Chelsea +1.5',
      'Match - Total: Over 2.5',
      'Match - Total: Under 2.5',
      'Match - Team Total - Arsenal: Over 1.5',
      'Match - Team Total - Arsenal: Under 1.5',
    ]);
    expect(
      change.selections.filter((s) => s.market_name.endsWith('Money Line')).every((s) => !('line' in s)),
    ).toBe(true);
    expect(diff.matches).toEqual([
      {
        id: MATCH,
        sport_id: SOCCER,
        league_id: 1980,
        league_name: 'England - Premier League',
        home: 'Arsenal',
        away: 'Chelsea',
        start_time: '2026-11-21T15:00:00Z',
        is_live: false,
        parent_id: null,
        version: T0,
      },
    ]);
    expect(diff.leaguesChanged).toEqual([SOCCER]);
    expect(state.leagues()).toEqual([{ id: 1980, name: 'England - Premier League', sport_id: SOCCER }]);
  });

  it('flattens specials: description as market name and special on the match', () => {
    const state = labelled();
    const diff = full(state, [aSpecialMarket()], T0, [aMatchup(), aSpecial()]);
    const selections = changeOf(diff, SPECIAL).selections;
    expect(selections.map((s) => [s.market_name, s.bet_name])).toEqual([
      ['Arsenal v Chelsea - First Goalscorer', 'Bukayo Saka'],
      ['Arsenal v Chelsea - First Goalscorer', 'Cole Palmer'],
    ]);
    expect(state.match(SPECIAL)).toMatchObject({
      special: 'Arsenal v Chelsea - First Goalscorer',
      home: null,
      away: null,
    });
    expect(state.match(MATCH)).not.toHaveProperty('special');
  });

  it('never leaves a bet name empty when participants do not resolve', () => {
    const state = labelled();
    const market = aSpecialMarket({
      prices: [
        { participant_id: 999, designation: 'field', price: 300 },
        { participant_id: 998, price: 400 },
      ],
    });
    const selections = changeOf(full(state, [market], T0, [aSpecial()]), SPECIAL).selections;
    expect(selections.map((s) => s.bet_name)).toEqual(['field', '998']);
  });

  it('all selections of a market share version, status, cutoff and limit', () => {
    const state = labelled();
    full(state, [aMoneyline({ status: 'suspended', limits: [{ type: 'maxRiskStake', amount: 777 }] })], T0);
    const selections = state.matchOdds(MATCH, T0)!.selections;
    expect(new Set(selections.map((s) => `${s.version}|${s.status}|${s.cutoff_at}|${s.limit}`))).toEqual(
      new Set([`${T0}|locked|2026-11-21T15:00:00Z|777`]),
    );
  });
});

describe('IngestBook: versions', () => {
  it('issues nothing on a poll where nothing changed, not even a new book version without visible change', () => {
    const state = labelled();
    full(state, [aMoneyline(), aTotal()], T0);
    const again = full(state, [aMoneyline(), aTotal()], T0 + 1000);
    expect(again.changes).toEqual([]);
    expect(again.matches).toEqual([]);
    expect(again.leaguesChanged).toEqual([]);
    expect(full(state, [aMoneyline({ version: 2 }), aTotal()], T0 + 2000).changes).toEqual([]);
    expect(
      state.applyDelta(SOCCER, { markets: [aTotal(2.5, { version: 5 })], withdrawn: [] }, T0 + 3000).changes,
    ).toEqual([]);
    expect(state.matchOdds(MATCH, T0 + 3000)!.ts).toBe(T0);
  });

  it('gives every visible change a greater version, the whole market re-sent', () => {
    const state = labelled();
    full(state, [aMoneyline()], T0);
    const versions = [T0];
    const steps: Partial<UpstreamMarket>[] = [
      { version: 2, prices: [{ designation: 'home', price: 160 }, ...aMoneyline().prices.slice(1)] },
      { version: 3, limits: [{ type: 'maxRiskStake', amount: 1000 }] },
      { version: 4, cutoff_at: '2026-11-21T14:45:00Z' },
      { version: 5, status: 'suspended' },
      { version: 6, status: 'open' },
    ];
    let market = aMoneyline();
    steps.forEach((step, i) => {
      market = { ...market, ...step };
      // the same millisecond as before: the version still grows
      const change = changeOf(state.applyDelta(SOCCER, { markets: [market], withdrawn: [] }, T0));
      const selections = only(change.selections);
      expect(selections).toHaveLength(3);
      const version = selections[0].version;
      expect(version).toBeGreaterThan(versions[versions.length - 1]);
      expect(selections.every((s) => s.version === version)).toBe(true);
      versions.push(version);
      expect(change.ts).toBe(T0);
      if (i === 3) expect(selections[0].status).toBe('locked');
      if (i === 4) expect(selections[0].status).toBe('unlocked');
    });
    expect(versions).toEqual([T0, T0 + 1, T0 + 2, T0 + 3, T0 + 4, T0 + 5]);
    const later = changeOf(
      state.applyDelta(
        SOCCER,
        { markets: [{ ...market, version: 7, status: 'closed' }], withdrawn: [] },
        T0 + 60_000,
      ),
    );
    expect(later.selections[0].version).toBe(T0 + 60_000);
    expect(later.ts).toBe(T0 + 60_000);
  });

  it('renames every market when the label table arrives, with greater versions (cold start)', () => {
    const state = new IngestBook('book');
    expect(state.applyLabels(SOCCER, [], T0).changes).toEqual([]);
    const first = changeOf(full(state, [aMoneyline(), aTeamTotal('away')], T0));
    expect(new Set(first.selections.map((s) => s.market_name))).toEqual(
      new Set(['Period 0 - Money Line', 'Period 0 - Team Total - Chelsea']),
    );
    expect(state.hasLabels(SOCCER)).toBe(false);
    const renamed = changeOf(state.applyLabels(SOCCER, LABELS, T0 + 5000));
    expect(new Set(renamed.selections.map((s) => s.market_name))).toEqual(
      new Set(['Match - Money Line', 'Match - Team Total - Chelsea']),
    );
    expect(renamed.selections.every((s) => s.version === T0 + 5000)).toBe(true);
    expect(state.applyLabels(SOCCER, LABELS, T0 + 6000).changes).toEqual([]);
  });

  it('bumps the match version only when the match object changes', () => {
    const state = labelled();
    full(state, [], T0);
    expect(full(state, [], T0 + 1, [aMatchup({ version: 13 })]).matches).toEqual([]);
    const live = full(state, [], T0 + 2, [aMatchup({ version: 14, is_live: true })]);
    expect(live.matches).toEqual([expect.objectContaining({ is_live: true, version: T0 + 2 })]);
    const renamed = state.applyDelta(SOCCER, NO_MARKET_CHANGES, T0 + 3, {
      leagues: [{ id: 1980, name: 'EPL' }],
      matchups: [aMatchup({ version: 14, is_live: true })],
    });
    expect(renamed.matches).toEqual([expect.objectContaining({ league_name: 'EPL', version: T0 + 3 })]);
    expect(renamed.leaguesChanged).toEqual([SOCCER]);
  });
});

describe('IngestBook: lines and withdrawals', () => {
  it('a line move under a keyless book key withdraws the old market_key and adds a new one (delta)', () => {
    const state = labelled();
    const first = changeOf(full(state, [aTotal(2.5, { key: 's;0;ou' })], T0));
    const oldKey = first.selections[0].market_key;
    const moved = aTotal(3.5, { key: 's;0;ou', version: 2 });
    const change = changeOf(state.applyDelta(SOCCER, { markets: [moved], withdrawn: [] }, T0 + 10));
    const newKey = change.selections[0].market_key;
    expect(newKey).not.toBe(oldKey);
    expect(change.removedMarketKeys).toEqual([oldKey]);
    expect(change.selections.map((s) => s.bet_name)).toEqual(['Over 3.5', 'Under 3.5']);
    expect(state.matchOdds(MATCH, T0 + 10)!.selections.map((s) => s.market_key)).toEqual([newKey, newKey]);
  });

  it('the same line move also works as "withdrawn" plus the new market in one delta', () => {
    const state = labelled();
    const oldKey = changeOf(full(state, [aTotal(2.5, { key: 's;0;ou' })], T0)).selections[0].market_key;
    const change = changeOf(
      state.applyDelta(
        SOCCER,
        {
          markets: [aTotal(3, { key: 's;0;ou', version: 2 })],
          withdrawn: [{ matchup_id: MATCH, key: 's;0;ou' }],
        },
        T0 + 10,
      ),
    );
    expect(change.removedMarketKeys).toEqual([oldKey]);
    expect(only(change.selections).map((s) => s.line)).toEqual([3, 3]);
  });

  it('a market no longer listed in a full load is withdrawn; a line move lists a new key', () => {
    const state = labelled();
    const first = byKey(changeOf(full(state, [aMoneyline(), aSpread(-1.5)], T0)).selections);
    const [mlKey, spreadKey] = [...first.keys()];
    const change = changeOf(full(state, [aMoneyline(), aSpread(-2.5)], T0 + 10));
    expect(change.removedMarketKeys).toEqual([spreadKey]);
    expect(only(change.selections).map((s) => s.bet_name)).toEqual(['Arsenal -2.5', 'Chelsea +2.5']);
    expect(new Set(state.matchOdds(MATCH, T0 + 10)!.selections.map((s) => s.market_key)).has(mlKey)).toBe(
      true,
    );
  });

  it('withdrawn in a delta goes out in removed_market_keys, other markets untouched', () => {
    const state = labelled();
    full(state, [aMoneyline(), aTotal()], T0);
    const totalKey = state.matchOdds(MATCH, T0)!.selections[3].market_key;
    const change = changeOf(
      state.applyDelta(
        SOCCER,
        { markets: [], withdrawn: [{ matchup_id: MATCH, key: 's;0;ou;2.5' }] },
        T0 + 1,
      ),
    );
    expect(change).toMatchObject({
      selections: [],
      removedMarketKeys: [totalKey],
      matchRemoved: false,
      ts: T0 + 1,
    });
    expect(state.marketCount()).toBe(1);
    expect(
      state.applyDelta(SOCCER, { markets: [], withdrawn: [{ matchup_id: MATCH, key: 'nope' }] }, T0 + 2)
        .changes,
    ).toEqual([]);
  });

  it('a withdrawn matchup removes the match and all its markets', () => {
    const state = labelled();
    full(state, [aMoneyline(), aTotal(), aSpecialMarket()], T0, [aMatchup(), aSpecial()]);
    const keys = new Set(state.matchOdds(MATCH, T0)!.selections.map((s) => s.market_key));
    const diff = state.applyDelta(SOCCER, NO_MARKET_CHANGES, T0 + 1, {
      leagues: LEAGUES,
      matchups: [aSpecial()],
    });
    expect(diff.removedMatches).toEqual([{ id: MATCH, sportId: SOCCER }]);
    const change = changeOf(diff);
    expect(change).toMatchObject({ matchRemoved: true, selections: [], ts: T0 + 1 });
    expect(new Set(change.removedMarketKeys)).toEqual(keys);
    expect(state.match(MATCH)).toBeUndefined();
    expect(state.matchOdds(MATCH, T0 + 1)).toBeUndefined();
    expect(state.matches().map((m) => m.id)).toEqual([SPECIAL]);
    expect(diff.changes).toHaveLength(1);
  });

  it('keeps markets of a matchup not listed yet and publishes them once it appears', () => {
    const state = labelled();
    full(state, [], T0);
    const other = aMatchup({ id: 7, participants: [{ id: 71, alignment: 'home', name: 'Spurs' }] });
    const early = aMoneyline({ matchup_id: 7 });
    expect(state.applyDelta(SOCCER, { markets: [early], withdrawn: [] }, T0 + 1).changes).toEqual([]);
    const diff = state.applyDelta(SOCCER, NO_MARKET_CHANGES, T0 + 2, {
      leagues: LEAGUES,
      matchups: [aMatchup(), other],
    });
    const change = changeOf(diff, 7);
    expect(change.matchAdded).toBe(true);
    expect(change.selections.map((s) => s.bet_name)).toEqual(['Spurs', 'away', 'Draw']);
  });

  it('locks the markets of a period the listing of a poll suspends, in the same pass as its delta', () => {
    const state = labelled();
    // No status of its own: the period's applies.
    full(state, [aMoneyline({ status: undefined })], T0);
    const suspended = aMatchup({
      version: 13,
      periods: [
        { number: 0, status: 'suspended', cutoff_at: '2026-11-21T15:00:00Z' },
        { number: 1, status: 'open', cutoff_at: '2026-11-21T15:00:00Z' },
      ],
    });
    const change = changeOf(
      state.applyDelta(SOCCER, { markets: [], withdrawn: [] }, T0 + 1, {
        leagues: LEAGUES,
        matchups: [suspended],
      }),
    );
    expect(change.selections.length).toBeGreaterThan(0);
    expect(change.selections.every((s) => s.status === 'locked')).toBe(true);
  });

  it('a new matchup listed in the same poll as its first markets is announced once, with them', () => {
    const state = labelled();
    full(state, [], T0);
    const other = aMatchup({ id: 7, participants: [{ id: 71, alignment: 'home', name: 'Spurs' }] });
    const diff = state.applyDelta(
      SOCCER,
      { markets: [aMoneyline({ matchup_id: 7 })], withdrawn: [] },
      T0 + 1,
      { leagues: LEAGUES, matchups: [aMatchup(), other] },
    );
    const changes = diff.changes.filter((change) => change.matchId === 7);
    expect(changes).toHaveLength(1);
    expect(changes[0].matchAdded).toBe(true);
    expect(changes[0].selections.map((s) => s.bet_name)).toEqual(['Spurs', 'away', 'Draw']);
  });

  it('a sport no longer listed takes its matches with it', () => {
    const state = labelled();
    state.applySports([{ id: SOCCER, name: 'Soccer' }], T0);
    full(state, [aMoneyline()], T0);
    expect(state.sports()).toEqual([{ id: SOCCER, name: 'Soccer' }]);
    const diff = state.applySports([{ id: 4, name: 'Basketball' }], T0 + 1);
    expect(diff.sportsChanged).toBe(true);
    expect(diff.removedMatches).toEqual([{ id: MATCH, sportId: SOCCER }]);
    expect(state.leagues()).toEqual([]);
    expect(state.applySports([{ id: 4, name: 'Basketball' }], T0 + 2).sportsChanged).toBe(false);
  });
});

describe('IngestBook: listing order', () => {
  const five = (): UpstreamMarket[] => [aMoneyline(), aSpread(-1.5), aSpread(-0.5), aTotal(2.5), aTotal(3.5)];

  function keysOf(state: IngestBook): Set<string> {
    return new Set(state.matchOdds(MATCH, T0)!.selections.map((s) => s.market_key));
  }

  it('a reordered listing with one market inserted and one dropped changes only those two', () => {
    const state = labelled();
    full(state, five(), T0);
    const before = keysOf(state);
    const [ml, s15, s05, t25, t35] = five();
    const listing = [t35, aTeamTotal('away'), s05, ml, t25];
    const change = changeOf(full(state, listing, T0 + 1));
    expect(change.selections.map((s) => s.market_name)).toEqual([
      'Match - Team Total - Chelsea',
      'Match - Team Total - Chelsea',
    ]);
    expect(change.removedMarketKeys).toHaveLength(1);
    expect(before.has(change.removedMarketKeys[0])).toBe(true);
    expect(keysOf(state).has(change.removedMarketKeys[0])).toBe(false);
    expect(change.removedMarketKeys[0]).toBe(changeOf(full(labelled(), [s15], T0)).selections[0].market_key);
    expect(full(state, listing, T0 + 2).changes).toEqual([]);
    expect(full(state, [...listing].reverse(), T0 + 3).changes).toEqual([]);
    expect(state.marketCount()).toBe(5);
  });

  it('a market listed twice is held once; one withdrawn by a delta and listed again comes back', () => {
    const state = labelled();
    full(state, five(), T0);
    const listed = five();
    expect(full(state, [...listed, listed[1]], T0 + 1).changes).toEqual([]);
    expect(state.marketCount()).toBe(5);
    state.applyDelta(SOCCER, { markets: [], withdrawn: [{ matchup_id: MATCH, key: listed[1].key }] }, T0 + 2);
    expect(state.marketCount()).toBe(4);
    const back = changeOf(full(state, five(), T0 + 3));
    expect(only(back.selections).map((s) => [s.bet_name, s.version])).toEqual([
      ['Arsenal -1.5', T0 + 3],
      ['Chelsea +1.5', T0 + 3],
    ]);
    expect(state.marketCount()).toBe(5);
  });
});

describe('IngestBook: locks and cutoffs', () => {
  it('locks at the cutoff through tick, with a greater version and the last price', () => {
    const state = labelled();
    full(state, [aMoneyline(), aTotal(2.5, { cutoff_at: '2026-11-21T14:30:00Z' })], T0);
    const early = Date.parse('2026-11-21T14:30:00Z');
    expect(state.nextCutoff()).toBe(early);
    expect(state.tick(early - 1).changes).toEqual([]);
    const change = changeOf(state.tick(early + 200));
    const locked = only(change.selections);
    expect(locked.map((s) => [s.bet_name, s.status, s.price])).toEqual([
      ['Over 2.5', 'locked', -110],
      ['Under 2.5', 'locked', -120],
    ]);
    expect(locked[0].version).toBe(early + 200);
    expect(change.ts).toBe(early + 200);
    expect(state.nextCutoff()).toBe(CUTOFF);
    expect(state.tick(early + 300).changes).toEqual([]);
    expect(only(changeOf(state.tick(CUTOFF)).selections)[0].market_name).toBe('Match - Money Line');
    expect(state.nextCutoff()).toBeUndefined();
  });

  it('a withdrawn or suspended market no longer waits for its cutoff', () => {
    const state = labelled();
    full(state, [aMoneyline(), aTotal(2.5, { cutoff_at: '2026-11-21T14:00:00Z' })], T0);
    state.applyDelta(SOCCER, { markets: [], withdrawn: [{ matchup_id: MATCH, key: 's;0;ou;2.5' }] }, T0 + 1);
    expect(state.nextCutoff()).toBe(CUTOFF);
    state.applyDelta(
      SOCCER,
      { markets: [aMoneyline({ version: 2, status: 'suspended' })], withdrawn: [] },
      T0 + 2,
    );
    expect(state.nextCutoff()).toBeUndefined();
    expect(state.tick(CUTOFF + 1).changes).toEqual([]);
  });

  it('evaluates status at read time, before tick has run', () => {
    const state = labelled();
    full(state, [aMoneyline()], T0);
    expect(state.matchOdds(MATCH, CUTOFF - 1)!.selections.every((s) => s.status === 'unlocked')).toBe(true);
    expect(state.matchOdds(MATCH, CUTOFF)!.selections.every((s) => s.status === 'locked')).toBe(true);
  });

  it('a suspended period locks markets without a status of their own; reopening before the cutoff unlocks', () => {
    const state = labelled();
    const market = aMoneyline({ status: undefined });
    full(state, [market], T0);
    const suspended = aMatchup({
      version: 13,
      periods: [{ number: 0, status: 'suspended', cutoff_at: '2026-11-21T15:00:00Z' }],
    });
    const locked = only(changeOf(full(state, [market], T0 + 1, [suspended])).selections);
    expect(locked.every((s) => s.status === 'locked' && s.version === T0 + 1)).toBe(true);
    expect(state.nextCutoff()).toBeUndefined();
    const reopened = only(changeOf(full(state, [market], T0 + 2, [aMatchup({ version: 14 })])).selections);
    expect(reopened.every((s) => s.status === 'unlocked' && s.version === T0 + 2)).toBe(true);
    expect(state.nextCutoff()).toBe(CUTOFF);
  });

  it('reopening after the cutoff stays locked', () => {
    const state = labelled();
    full(state, [aMoneyline({ status: 'suspended' })], T0);
    const after = state.applyDelta(
      SOCCER,
      { markets: [aMoneyline({ version: 2 })], withdrawn: [] },
      CUTOFF + 1,
    );
    expect(after.changes).toEqual([]);
    expect(state.matchOdds(MATCH, CUTOFF + 1)!.selections.every((s) => s.status === 'locked')).toBe(true);
  });

  it('a prematch matchup left frozen open with a past cutoff is locked; its live matchup is open', () => {
    const state = labelled();
    const now = CUTOFF + 60_000;
    const live = aMatchup({
      id: 1609999999,
      parent_id: MATCH,
      is_live: true,
      periods: [{ number: 0, status: 'open', cutoff_at: '2026-11-21T17:00:00Z' }],
    });
    const diff = full(state, [aMoneyline(), aMoneyline({ matchup_id: live.id, cutoff_at: undefined })], now, [
      aMatchup(),
      live,
    ]);
    expect(changeOf(diff).selections.every((s) => s.status === 'locked')).toBe(true);
    expect(changeOf(diff, live.id).selections.every((s) => s.status === 'unlocked')).toBe(true);
    expect(state.match(live.id)).toMatchObject({ parent_id: MATCH, is_live: true });
    expect(state.nextCutoff()).toBe(Date.parse('2026-11-21T17:00:00Z'));
  });
});

describe('IngestBook: restarts', () => {
  /** Selections as objects, or as the JSON text the ingest's seed reads from PostgreSQL. */
  function persisted(state: IngestBook, form: 'objects' | 'text' = 'objects'): SeedMatch[] {
    return state.matches().map((match) => {
      const odds = state.matchOdds(match.id, T0)!;
      return {
        match,
        ts: odds.ts,
        markets: [...byKey(odds.selections)].map(([marketKey, selections]) => ({
          marketKey,
          version: selections[0].version,
          selections: form === 'text' ? JSON.stringify(selections) : selections,
        })),
      };
    });
  }

  it.each(['objects', 'text'] as const)(
    'a restart seeded from persisted state (selections as %s) announces only what changed, with greater versions',
    (form) => {
      const before = labelled();
      full(before, [aMoneyline(), aSpread(-1.5), aTotal()], T0);
      // the clock of the new process is behind: versions must still grow
      const after = new IngestBook('book', persisted(before, form));
      after.applyLabels(SOCCER, LABELS, T0 - 50_000);
      const diff = full(
        after,
        [
          aMoneyline({
            version: 2,
            prices: [{ designation: 'home', price: 120 }, ...aMoneyline().prices.slice(1)],
          }),
          aSpread(-1.5),
        ],
        T0 - 50_000,
      );
      expect(diff.matches).toEqual([]);
      const change = changeOf(diff);
      expect(change.matchAdded).toBe(false);
      expect(change.selections.map((s) => [s.market_key, s.version])).toEqual([
        ['s;0;m', T0 + 1],
        ['s;0;m', T0 + 1],
        ['s;0;m', T0 + 1],
      ]);
      expect(change.removedMarketKeys).toEqual([before.matchOdds(MATCH, T0)!.selections[5].market_key]);
      expect(byKey(after.matchOdds(MATCH, T0)!.selections).get(change.removedMarketKeys[0])).toBeUndefined();
      expect(
        after
          .matchOdds(MATCH, T0)!
          .selections.filter((s) => s.line !== undefined)
          .every((s) => s.version === T0),
      ).toBe(true);
    },
  );

  it('a seeded match the book no longer lists is removed', () => {
    const before = labelled();
    full(before, [aMoneyline()], T0);
    const after = new IngestBook('book');
    after.seed(persisted(before));
    const diff = full(after, [], T0 + 1, []);
    expect(diff.removedMatches).toEqual([{ id: MATCH, sportId: SOCCER }]);
    expect(changeOf(diff).removedMarketKeys).toEqual(['s;0;m']);
  });

  it('a restart seeded with an unpublished match announces it again, every market with a greater version', () => {
    const before = labelled();
    full(before, [aMoneyline(), aTotal()], T0);
    const stored = persisted(before).map((match) => ({
      ...match,
      unpublished: true,
      markets: match.markets.map(({ marketKey, version }) => ({ marketKey, version })),
    }));
    const after = new IngestBook('book', stored);
    after.applyLabels(SOCCER, LABELS, T0 - 50_000);
    const diff = full(after, [aMoneyline(), aTotal()], T0 - 50_000);
    expect(diff.matches.map((match) => [match.id, match.version])).toEqual([[MATCH, T0 + 1]]);
    const change = changeOf(diff);
    expect(change.selections).toHaveLength(before.matchOdds(MATCH, T0)!.selections.length);
    expect(change.selections.every((s) => s.version === T0 + 1)).toBe(true);
    expect(change.removedMarketKeys).toEqual([]);

    const again = full(after, [aMoneyline(), aTotal()], T0 - 49_000);
    expect(again.matches).toEqual([]);
    expect(again.changes).toEqual([]);
  });

  it('a market stored removed but not yet announced is withdrawn by the next full load', () => {
    const before = labelled();
    full(before, [aMoneyline(), aTotal()], T0);
    const [match] = persisted(before);
    const stored = [
      {
        ...match,
        unpublished: true,
        markets: [...match.markets, { marketKey: 's;0;ou;9.5', version: T0 - 5 }],
      },
    ];
    const after = new IngestBook('book', stored);
    after.applyLabels(SOCCER, LABELS, T0 + 1);
    const change = changeOf(full(after, [aMoneyline(), aTotal()], T0 + 1));
    expect(change.removedMarketKeys).toEqual(['s;0;ou;9.5']);
  });

  it('without persisted state a later process still issues greater versions', () => {
    const before = labelled();
    full(before, [aMoneyline()], T0);
    const after = labelled();
    const version = changeOf(full(after, [aMoneyline()], T0 + 1)).selections[0].version;
    expect(version).toBeGreaterThan(before.matchOdds(MATCH, T0)!.selections[0].version);
  });
});

describe('IngestBook: work proportional to change', () => {
  function bigBook(markets: number): { matchups: UpstreamMatchup[]; markets: UpstreamMarket[] } {
    const matchups: UpstreamMatchup[] = [];
    const list: UpstreamMarket[] = [];
    for (let i = 0; list.length < markets; i++) {
      matchups.push(aMatchup({ id: i + 1 }));
      for (let j = 0; j < 40 && list.length < markets; j++) {
        list.push(aSpread(-(j + 1) / 4, { matchup_id: i + 1 }));
      }
    }
    return { matchups, markets: list };
  }

  afterEach(() => jest.restoreAllMocks());

  it('a no-change full poll of a big book resolves nothing; a 1% change resolves only that', () => {
    const state = labelled();
    const book = bigBook(20_000);
    full(state, book.markets, T0, book.matchups);
    expect(state.marketCount()).toBe(20_000);
    const resolve = jest.spyOn(resolution, 'resolveMarket');
    expect(full(state, book.markets, T0 + 1000, book.matchups).changes).toEqual([]);
    expect(resolve).not.toHaveBeenCalled();
    const moved = book.markets.map((m, i) =>
      i % 100 === 0 ? { ...m, version: 2, prices: m.prices.map((p) => ({ ...p, price: p.price + 5 })) } : m,
    );
    const diff = full(state, moved, T0 + 2000, book.matchups);
    expect(resolve).toHaveBeenCalledTimes(200);
    expect(diff.changes.reduce((n, c) => n + c.selections.length, 0)).toBe(400);
  });
});
