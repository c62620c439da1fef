import { matchFields, publicMatch } from './public-match';
import { selectionInOrder, type Selection } from './selection';
import { updateFrame } from '../book-messages';

/** What a PostgreSQL jsonb column gives back: the same object, keys sorted by length, then bytes. */
function asJsonb<T extends object>(value: T): T {
  const keys = Object.keys(value).sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(keys.map((key) => [key, value[key as keyof T]])) as T;
}

describe('public field order', () => {
  const matchup = {
    id: 7,
    league_id: 1980,
    type: 'matchup',
    parent_id: null,
    is_live: false,
    start_time: '2026-11-21T15:00:00Z',
    special: { description: 'First Goalscorer' },
    participants: [
      { id: 1, alignment: 'home', name: 'Arsenal' },
      { id: 2, alignment: 'away', name: 'Chelsea' },
    ],
    periods: [],
    version: 3,
  } as unknown as Parameters<typeof matchFields>[1];

  it('serialises a match read back from jsonb to the bytes the ingest published', () => {
    const published = publicMatch(matchFields(29, matchup, 'Premier League'), 12);
    expect(Object.keys(published)).toEqual([
      'id',
      'sport_id',
      'league_id',
      'league_name',
      'home',
      'away',
      'start_time',
      'is_live',
      'parent_id',
      'version',
      'special',
    ]);
    const stored = asJsonb(published);
    expect(JSON.stringify(stored)).not.toBe(JSON.stringify(published));
    expect(JSON.stringify(publicMatch(stored, stored.version))).toBe(JSON.stringify(published));
  });

  it('serialises a selection read back from jsonb to the bytes the ingest published, line or not', () => {
    const withLine: Selection = {
      market_key: 's;0;ou;2.5',
      market_name: 'Match - Total',
      period: 0,
      bet_name: 'Over 2.5',
      line: 2.5,
      price: -110,
      decimal: 1.909,
      status: 'unlocked',
      version: 4,
      cutoff_at: '2026-11-21T15:00:00Z',
      limit: 5000,
    };
    const { line: _line, ...withoutLine } = withLine;
    for (const published of [withLine, withoutLine as Selection]) {
      expect(JSON.stringify(selectionInOrder(asJsonb(published)))).toBe(JSON.stringify(published));
    }
  });

  it('writes an update frame in its wire order, with a position and without', () => {
    expect(JSON.stringify(updateFrame(7, 29, 100, [], ['k'], { seq: 12, prevSeq: null }))).toBe(
      '{"type":"update","seq":12,"prev_seq":null,"match_id":7,"sport_id":29,"ts":100,"selections":[],"removed_market_keys":["k"]}',
    );
    expect(JSON.stringify(updateFrame(7, 29, 100, [], []))).toBe(
      '{"type":"update","match_id":7,"sport_id":29,"ts":100,"selections":[],"removed_market_keys":[]}',
    );
  });
});
