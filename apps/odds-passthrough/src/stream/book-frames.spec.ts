import type { MatchUpdate } from '../book/book-messages';
import type { Selection } from '../book/domain/selection';
import { conflateBookFrames, heartbeatFrame, snapshotFrame, updateFrame } from './book-frames';
import { aSelection } from '../../../../test/odds-passthrough/selection-factory';

function selection(market: string, version: number, bet = 'Home'): Selection {
  return aSelection({
    market_key: market,
    market_name: market,
    bet_name: bet,
    price: 100 + version,
    decimal: 2,
    version,
    limit: 500,
  });
}

/** Each test frame's position follows from its ts: seq 10 × ts, after the change at 10 × (ts - 1). */
function at(ts: number) {
  return { seq: 10 * ts, prevSeq: ts > 1 ? 10 * (ts - 1) : null };
}

function update(ts: number, selections: Selection[], removed: string[] = []) {
  const body: MatchUpdate = { match_id: 7, sport_id: 29, ts, selections, removed_market_keys: removed };
  const position = at(ts);
  return updateFrame(
    body,
    JSON.stringify({ type: 'update', seq: position.seq, prev_seq: position.prevSeq, ...body }),
    position,
  );
}

const parse = (frame: { data: Buffer }) => JSON.parse(frame.data.toString()) as Record<string, unknown>;

describe('conflateBookFrames', () => {
  it('merges updates per market_key: latest version wins, removals united', () => {
    const merged = conflateBookFrames(
      update(1, [selection('a', 1), selection('a', 1, 'Away'), selection('b', 1)], ['x']),
      update(2, [selection('a', 2), selection('a', 2, 'Away'), selection('c', 1)], ['y']),
    );
    expect(parse(merged)).toEqual({
      type: 'update',
      seq: 20,
      prev_seq: 10,
      match_id: 7,
      sport_id: 29,
      ts: 2,
      selections: [selection('b', 1), selection('a', 2), selection('a', 2, 'Away'), selection('c', 1)],
      removed_market_keys: ['x', 'y'],
    });
    expect(merged.key).toBe('match:7');
  });

  it('drops a market removed by the newer update and keeps one re-listed after removal', () => {
    const merged = parse(
      conflateBookFrames(update(1, [selection('a', 1)], ['b']), update(2, [selection('b', 5)], ['a'])),
    );
    expect(merged.selections).toEqual([selection('b', 5)]);
    expect(merged.removed_market_keys).toEqual(['a']);
  });

  it('never lets an older version replace a newer one', () => {
    const merged = parse(conflateBookFrames(update(2, [selection('a', 3)]), update(3, [selection('a', 2)])));
    expect(merged.selections).toEqual([selection('a', 3)]);
  });

  it('folds updates into a waiting snapshot, which stays a snapshot', () => {
    const snapshot = snapshotFrame(
      { match_id: 7, sport_id: 29, ts: 1, selections: [selection('a', 1), selection('b', 1)] },
      at(1),
    );
    const merged = conflateBookFrames(snapshot, update(4, [selection('a', 2)], ['b']));
    expect(parse(merged)).toEqual({
      type: 'snapshot',
      seq: 40,
      prev_seq: 30,
      match_id: 7,
      sport_id: 29,
      ts: 4,
      selections: [selection('a', 2)],
    });
  });

  it('lets a newer snapshot or heartbeat replace what waits', () => {
    const snapshot = snapshotFrame({ match_id: 7, sport_id: 29, ts: 9, selections: [] }, at(9));
    expect(conflateBookFrames(update(1, []), snapshot)).toBe(snapshot);
    const beat = heartbeatFrame(2, 90, false);
    expect(conflateBookFrames(heartbeatFrame(1, 90, true), beat)).toBe(beat);
  });

  it('counts a merged frame close to the size it will have, without building it first', () => {
    const many = (version: number) => Array.from({ length: 40 }, (_, i) => selection(`m${i}`, version));
    const merged = conflateBookFrames(update(1, many(1)), update(2, many(2)));
    const estimated = merged.byteLength as number;
    const actual = merged.data.length;
    expect(estimated).toBeGreaterThanOrEqual(actual);
    expect(estimated).toBeLessThan(actual * 1.2);
  });
});
