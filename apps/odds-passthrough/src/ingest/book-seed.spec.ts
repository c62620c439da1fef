import type { StoredSeed } from '../book/book.repository';
import { aMatchup, aTotal } from '../../../../test/odds-passthrough/sportsbook-factory';
import type { MatchInfo } from '../book/book-messages';
import { countParts } from '../../../../test/support/parts';
import { seededBook } from './book-seed';

const NOW = Date.parse('2026-11-21T12:00:00Z');

function info(id: number): MatchInfo {
  return {
    id,
    sport_id: 29,
    league_id: 1980,
    league_name: 'EPL',
    home: 'Arsenal',
    away: 'Chelsea',
    start_time: '2026-11-21T15:00:00Z',
    is_live: false,
    parent_id: null,
    version: 1,
  };
}

describe('seededBook', () => {
  it('seeds a large stored book a part at a time and recalls every stored position', () => {
    const ids = Array.from({ length: 250 }, (_, i) => 1_900_000_000 + i);
    const stored: StoredSeed = {
      matches: ids.map((id, i) => ({ info: info(id), ts: NOW, position: { seq: i + 1, prevSeq: null } })),
      markets: [],
    };
    const recalled: number[] = [];
    const { yields, value: book } = countParts(
      seededBook('book', stored, (_matchId, seq) => recalled.push(seq)),
    );
    expect(yields).toBeGreaterThanOrEqual(3);
    expect(recalled).toEqual(ids.map((_, i) => i + 1));
    book.applySports([{ id: 29, name: 'Soccer' }], NOW);
    book.applyLabels(29, [{ number: 0, description: 'Match' }], NOW);
    // A stored match listed again with the same fields is not announced again.
    const diff = book.applyFull(
      29,
      { leagues: [{ id: 1980, name: 'EPL' }], matchups: [aMatchup({ id: ids[0] })], markets: [] },
      NOW,
    );
    expect(diff.matches.map((m) => m.id)).not.toContain(ids[0]);
  });

  it('announces again, with a greater version, a market stored as removed (`[]`)', () => {
    const id = 1_900_000_000;
    const stored: StoredSeed = {
      matches: [{ info: info(id), ts: NOW, position: { seq: 3, prevSeq: null } }],
      markets: [{ matchId: id, marketKey: 's;0;ou;2.5@2.5', version: NOW + 5, selectionsText: '[]' }],
    };
    const book = countParts(seededBook('book', stored, () => undefined)).value;
    book.applySports([{ id: 29, name: 'Soccer' }], NOW);
    book.applyLabels(29, [{ number: 0, description: 'Match' }], NOW);

    const diff = book.applyFull(
      29,
      {
        leagues: [{ id: 1980, name: 'EPL' }],
        matchups: [aMatchup({ id })],
        markets: [aTotal(2.5, { matchup_id: id })],
      },
      NOW,
    );

    const announced = diff.changes.find((change) => change.matchId === id)?.selections ?? [];
    expect(announced.map((s) => s.market_key)).toEqual(['s;0;ou;2.5@2.5', 's;0;ou;2.5@2.5']);
    expect(announced.every((s) => s.version > NOW + 5)).toBe(true);
  });
});
