import fc from 'fast-check';
import { serializeUpdateFrame } from '../book/book-messages';
import { IngestBook } from '../book/domain';
import { groupByMarket, type Selection } from '../book/domain/selection';
import { buildPublication } from './book-publication';
import { aMatchup, aMoneyline, aTotal } from '../../../../test/odds-passthrough/sportsbook-factory';

const NOW = Date.parse('2026-11-21T12:00:00Z');

describe('buildPublication', () => {
  function loaded(): IngestBook {
    const state = new IngestBook('book');
    state.applySports([{ id: 29, name: 'Soccer' }], NOW);
    state.applyLabels(29, [{ number: 0, description: 'Match' }], NOW);
    return state;
  }

  it('turns a full load into catalog messages first, one frame per match and the rows to write', () => {
    const state = loaded();
    const diff = state.applyFull(
      29,
      { leagues: [{ id: 1980, name: 'EPL' }], matchups: [aMatchup()], markets: [aMoneyline(), aTotal()] },
      NOW,
    );
    const publication = buildPublication(state, diff);
    expect(publication?.catalog).toEqual([
      { leagues: [{ sport_id: 29, leagues: [{ id: 1980, name: 'EPL', sport_id: 29 }] }] },
      { matches: [expect.objectContaining({ id: 1601234567, league_name: 'EPL' })] },
    ]);
    expect(publication?.frames).toHaveLength(1);
    const frame = JSON.parse(publication?.frames[0].frame ?? '{}') as Record<string, unknown>;
    expect(Object.keys(frame)).toEqual([
      'type',
      'match_id',
      'sport_id',
      'ts',
      'selections',
      'removed_market_keys',
    ]);
    expect(frame).toEqual(
      expect.objectContaining({ type: 'update', match_id: 1601234567, sport_id: 29, ts: NOW }),
    );
    expect(publication?.write.matches).toEqual([
      { info: expect.objectContaining({ id: 1601234567 }) as unknown, ts: NOW },
    ]);
    expect(publication?.write.matchTimes).toEqual([]);
    expect(publication?.write.markets.map((m) => [m.marketKey, m.selections.length]).sort()).toEqual([
      ['s;0;m', 3],
      ['s;0;ou;2.5@2.5', 2],
    ]);
  });

  it('publishes nothing for a poll that changed nothing', () => {
    const state = loaded();
    const load = { leagues: [{ id: 1980, name: 'EPL' }], matchups: [aMatchup()], markets: [aMoneyline()] };
    state.applyFull(29, load, NOW);
    expect(buildPublication(state, state.applyFull(29, load, NOW + 1000))).toBeUndefined();
  });

  it('writes only the changed market of a delta, and removes a withdrawn one', () => {
    const state = loaded();
    state.applyFull(29, { leagues: [], matchups: [aMatchup()], markets: [aMoneyline(), aTotal()] }, NOW);
    const diff = state.applyDelta(
      29,
      {
        markets: [aMoneyline({ version: 2, prices: [{ designation: 'home', price: 120 }] })],
        withdrawn: [{ matchup_id: 1601234567, key: 's;0;ou;2.5' }],
      },
      NOW + 1000,
    );
    const publication = buildPublication(state, diff);
    expect(publication?.catalog).toEqual([]);
    expect(publication?.write.markets.map((m) => m.marketKey)).toEqual(['s;0;m']);
    expect(publication?.write.removedMarkets).toEqual([{ matchId: 1601234567, marketKey: 's;0;ou;2.5@2.5' }]);
    expect(publication?.withRemovals).toEqual([1601234567]);
    expect(publication?.catalogOnly).toEqual([]);
    // The match itself did not change: its row moves by its ts, its body is not written again.
    expect(publication?.write.matches).toEqual([]);
    expect(publication?.write.matchTimes).toEqual([{ matchId: 1601234567, ts: NOW + 1000 }]);
  });

  it('writes a match announced with a change of its prices whole, with the change ts', () => {
    const state = loaded();
    state.applyFull(29, { leagues: [], matchups: [aMatchup()], markets: [aMoneyline()] }, NOW);
    const moved = aMoneyline({ version: 2, prices: [{ designation: 'home', price: 120 }] });
    const renamed = aMatchup({
      version: 13,
      participants: [
        { id: 1601234568, alignment: 'home', name: 'Arsenal FC' },
        { id: 1601234569, alignment: 'away', name: 'Chelsea' },
      ],
    });
    const publication = buildPublication(
      state,
      state.applyFull(29, { leagues: [], matchups: [renamed], markets: [moved] }, NOW + 1000),
    );
    expect(publication?.write.matches).toEqual([
      { info: expect.objectContaining({ id: 1601234567, home: 'Arsenal FC' }) as unknown, ts: NOW + 1000 },
    ]);
    expect(publication?.write.matchTimes).toEqual([]);
  });

  it('names the matches told by the catalog alone, so their publication can be recorded', () => {
    const state = loaded();
    const load = { leagues: [{ id: 1980, name: 'EPL' }], matchups: [aMatchup()], markets: [aMoneyline()] };
    state.applyFull(29, load, NOW);
    const renamed = { ...load, leagues: [{ id: 1980, name: 'England - Premier League' }] };
    const publication = buildPublication(state, state.applyFull(29, renamed, NOW + 1000));
    expect(publication?.frames).toEqual([]);
    expect(publication?.catalogOnly).toEqual([1601234567]);
    expect(publication?.withRemovals).toEqual([]);
  });

  it('announces a withdrawn matchup in the catalog before its last frame, and deletes its rows', () => {
    const state = loaded();
    state.applyFull(29, { leagues: [], matchups: [aMatchup()], markets: [aMoneyline()] }, NOW);
    const publication = buildPublication(
      state,
      state.applyFull(29, { leagues: [], matchups: [], markets: [] }, NOW + 1),
    );
    expect(publication?.catalog).toEqual([{ removed_matches: [1601234567] }]);
    expect(JSON.parse(publication?.frames[0].frame ?? '{}')).toEqual(
      expect.objectContaining({ selections: [], removed_market_keys: ['s;0;m'] }),
    );
    expect(publication?.write.removedMatches).toEqual([1601234567]);
    expect(publication?.write.markets).toEqual([]);
    expect(publication?.withRemovals).toEqual([1601234567]);
  });
});

describe('buildPublication serialising each market once', () => {
  const selectionOf = (marketKey: string, betName: string, price: number): Selection => ({
    market_key: marketKey,
    market_name: 'Match - Total "Goals"',
    period: 0,
    bet_name: betName,
    price,
    decimal: 1.9,
    status: 'unlocked',
    version: 3,
    cutoff_at: '2026-11-21T15:00:00Z',
    limit: 5000,
  });
  const selections = fc.array(
    fc.tuple(fc.constantFrom('s;0;m', 's;0;ou;2.5', 'é;0;ou"\\'), fc.string(), fc.integer()),
    { maxLength: 12 },
  );

  it('writes the frame and every row as serialising them whole would, in any order of selections', () => {
    fc.assert(
      fc.property(selections, fc.array(fc.string(), { maxLength: 3 }), (rows, removed) => {
        const changed = rows.map(([key, bet, price]) => selectionOf(key, bet, price));
        const publication = buildPublication(new IngestBook('book'), {
          changes: [
            {
              book: 'book',
              matchId: 7,
              sportId: 29,
              ts: NOW,
              selections: changed,
              removedMarketKeys: removed,
              matchRemoved: false,
              matchAdded: false,
            },
          ],
          matches: [],
          removedMatches: [],
          sportsChanged: false,
          leaguesChanged: [],
        });
        expect(publication?.frames[0].frame).toBe(serializeUpdateFrame(7, 29, NOW, changed, removed));
        const markets = publication?.write.markets ?? [];
        expect(markets.map((m) => [m.marketKey, m.selections])).toEqual([...groupByMarket(changed)]);
        for (const market of markets) expect(market.selectionsJson).toBe(JSON.stringify(market.selections));
      }),
    );
  });
});
