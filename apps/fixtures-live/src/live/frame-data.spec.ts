import { frameData, snapshotJsonOf } from './frame-data';

describe('frameData', () => {
  it('puts match_id first and keeps the snapshot text as it was', () => {
    const snapshot = JSON.stringify({ v: 1, sport: 'soccer', score: { home: 1, away: 0 } });
    const data = frameData(42, snapshot);
    expect(data).toBe('{"match_id":42,"v":1,"sport":"soccer","score":{"home":1,"away":0}}');
    expect(JSON.parse(data)).toEqual({ match_id: 42, ...JSON.parse(snapshot) });
  });

  it('is undone by snapshotJsonOf, which refuses the data of another match', () => {
    const snapshot = JSON.stringify({ v: 3, sport: 'cricket' });
    expect(snapshotJsonOf(42, frameData(42, snapshot))).toBe(snapshot);
    expect(snapshotJsonOf(4, frameData(42, snapshot))).toBeNull();
  });
});
