import { Positions } from './positions';

describe('Positions', () => {
  it('applies the first frame of a match whatever its prev_seq', () => {
    expect(new Positions().judge(7, 100, 42)).toBe('apply');
  });

  it('ignores a frame whose seq is not greater than the one held', () => {
    const positions = new Positions();
    positions.applied(7, 100);
    expect(positions.judge(7, 100, 90)).toBe('stale');
    expect(positions.judge(7, 99, null)).toBe('stale');
  });

  it('applies a frame chained to the held seq, or one without a predecessor', () => {
    const positions = new Positions();
    positions.applied(7, 100);
    expect(positions.judge(7, 105, 100)).toBe('apply');
    expect(positions.judge(7, 105, null)).toBe('apply');
  });

  it('reports a gap when prev_seq names a change the client never saw', () => {
    const positions = new Positions();
    positions.applied(7, 100);
    expect(positions.judge(7, 110, 104)).toBe('gap');
  });

  it('keeps positions per match and never moves one backwards', () => {
    const positions = new Positions();
    positions.applied(1, 50);
    positions.applied(2, 80);
    positions.applied(1, 40);
    expect(positions.of(1)).toBe(50);
    expect(positions.of(2)).toBe(80);
    expect(positions.newestSeen).toBe(80);
  });

  it('resumes a group of matches from the smallest position held among them', () => {
    const positions = new Positions();
    positions.applied(1, 50);
    positions.applied(2, 80);
    positions.applied(3, 65);
    expect(positions.resumePointFor()).toBe(50);
    expect(positions.resumePointFor([2, 3, 4])).toBe(65);
    expect(positions.resumePointFor([4])).toBeUndefined();
    positions.forget(1);
    expect(positions.resumePointFor()).toBe(65);
  });

  it('counts heartbeat positions as seen without holding them for a match', () => {
    const positions = new Positions();
    positions.seen(500);
    expect(positions.newestSeen).toBe(500);
    expect(positions.resumePointFor()).toBeUndefined();
  });
});
