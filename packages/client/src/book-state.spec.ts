import { applyBookFrame, type MatchBook, selectionsOf } from './book-state';
import type { BookSnapshotFrame, BookUpdateFrame, Selection } from './odds-types';

function selection(market_key: string, bet_name: string, price: number, version: number): Selection {
  return {
    market_key,
    market_name: 'Match - Money Line',
    period: 0,
    bet_name,
    price,
    decimal: 2,
    status: 'unlocked',
    version,
    cutoff_at: '2099-01-01T00:00:00Z',
    limit: 500,
  };
}

function snapshot(selections: Selection[], ts = 1): BookSnapshotFrame {
  return { type: 'snapshot', seq: 1, prev_seq: null, match_id: 9, sport_id: 29, ts, selections };
}

function update(selections: Selection[], removed: string[] = [], ts = 2): BookUpdateFrame {
  return {
    type: 'update',
    seq: 2,
    prev_seq: 1,
    match_id: 9,
    sport_id: 29,
    ts,
    selections,
    removed_market_keys: removed,
  };
}

const prices = (book: MatchBook) => selectionsOf(book).map((s) => `${s.market_key}:${s.bet_name}:${s.price}`);

describe('applyBookFrame', () => {
  const base = applyBookFrame(
    undefined,
    snapshot([
      selection('ml', 'Home', 150, 3),
      selection('ml', 'Away', -170, 3),
      selection('tot', 'Over 2.5', -110, 5),
    ]),
  ).book;

  it('builds a book from a snapshot, market by market', () => {
    expect(prices(base)).toEqual(['ml:Home:150', 'ml:Away:-170', 'tot:Over 2.5:-110']);
    expect(base).toMatchObject({ matchId: 9, sportId: 29, ts: 1 });
  });

  it('replaces a whole market when its version grows, and leaves the others', () => {
    const change = applyBookFrame(
      base,
      update([selection('ml', 'Home', 160, 4), selection('ml', 'Away', -180, 4)]),
    );
    expect(prices(change.book)).toEqual(['ml:Home:160', 'ml:Away:-180', 'tot:Over 2.5:-110']);
    expect(change.changed).toEqual(['ml']);
    expect(change.book.ts).toBe(2);
  });

  it('ignores a market whose version is not greater than the one held', () => {
    const change = applyBookFrame(
      base,
      update([selection('ml', 'Home', 999, 3), selection('tot', 'Over 2.5', 1, 2)]),
    );
    expect(prices(change.book)).toEqual(prices(base));
    expect(change.ignored).toEqual(['ml', 'tot']);
    expect(change.changed).toEqual([]);
  });

  it('deletes removed keys, but keeps a key the same frame re-adds', () => {
    const gone = applyBookFrame(base, update([], ['tot', 'never-held']));
    expect(prices(gone.book)).toEqual(['ml:Home:150', 'ml:Away:-170']);
    expect(gone.removed).toEqual(['tot']);
    const back = applyBookFrame(base, update([selection('tot', 'Over 2.5', -105, 6)], ['tot']));
    expect(prices(back.book)).toContain('tot:Over 2.5:-105');
    expect(back.removed).toEqual([]);
  });

  it('takes a snapshot as the full image: markets it lacks are removed', () => {
    const change = applyBookFrame(
      base,
      snapshot([selection('ml', 'Home', 150, 3), selection('ml', 'Away', -170, 3)], 5),
    );
    expect(prices(change.book)).toEqual(['ml:Home:150', 'ml:Away:-170']);
    expect(change.removed).toEqual(['tot']);
    expect(change.ignored).toEqual(['ml']);
  });

  it('does not modify the book it was given', () => {
    applyBookFrame(base, update([selection('ml', 'Home', 1, 10)], ['tot']));
    expect(prices(base)).toEqual(['ml:Home:150', 'ml:Away:-170', 'tot:Over 2.5:-110']);
  });

  it('keeps the newest ts', () => {
    expect(applyBookFrame({ ...base, ts: 10 }, update([], [], 4)).book.ts).toBe(10);
  });
});
