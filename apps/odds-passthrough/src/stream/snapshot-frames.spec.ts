import type { MatchOdds } from '../book/domain/match-odds';
import { aSelection } from '../../../../test/odds-passthrough/selection-factory';
import { SnapshotFrames } from './snapshot-frames';

const m1 = aSelection({ market_key: 'm1', version: 1 });
const m2 = aSelection({ market_key: 'm2', version: 1 });

function odds(selections: MatchOdds['selections'], ts = 1): MatchOdds {
  return { match_id: 100, sport_id: 29, ts, selections };
}

describe('SnapshotFrames', () => {
  let frames: SnapshotFrames;

  beforeEach(() => (frames = new SnapshotFrames()));
  afterEach(() => frames.clear());

  it('hands out the same frame for the same state, even read afresh into a new object', () => {
    const first = frames.frame(odds([m1, m2]), { seq: 4, prevSeq: 1 });
    const again = frames.frame(odds([m1, m2]), { seq: 4, prevSeq: 1 });
    expect(again).toBe(first);
    expect(JSON.parse(first.data.toString())).toMatchObject({ type: 'snapshot', seq: 4, prev_seq: 1, ts: 1 });
  });

  it('builds a new frame for any other state: position, ts, a replaced or locked selection, order', () => {
    const first = frames.frame(odds([m1, m2]), { seq: 4, prevSeq: 1 });
    const others: Array<[MatchOdds, { seq: number; prevSeq: number | null }]> = [
      [odds([m1, m2]), { seq: 5, prevSeq: 4 }],
      [odds([m1, m2]), { seq: 4, prevSeq: null }],
      [odds([m1, m2], 2), { seq: 4, prevSeq: 1 }],
      [odds([m1, { ...m2 }]), { seq: 4, prevSeq: 1 }],
      [odds([m1, { ...m2, status: 'locked' }]), { seq: 4, prevSeq: 1 }],
      [odds([m2, m1]), { seq: 4, prevSeq: 1 }],
      [odds([m1]), { seq: 4, prevSeq: 1 }],
    ];
    for (const [state, position] of others) {
      const frame = frames.frame(state, position);
      expect(frame).not.toBe(first);
      expect(JSON.parse(frame.data.toString())).toMatchObject({
        seq: position.seq,
        prev_seq: position.prevSeq,
        ts: state.ts,
        selections: JSON.parse(JSON.stringify(state.selections)) as unknown,
      });
      frames.clear();
      expect(frames.frame(odds([m1, m2]), { seq: 4, prevSeq: 1 })).not.toBe(first);
    }
  });

  it('lets every frame go within a second', () => {
    jest.useFakeTimers();
    try {
      frames.frame(odds([m1]), { seq: 1, prevSeq: null });
      expect(frames.size).toBe(1);
      jest.advanceTimersByTime(1000);
      expect(frames.size).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });
});
