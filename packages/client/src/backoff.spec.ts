import { backoffDelay } from './backoff';

describe('backoffDelay', () => {
  const options = { initialMs: 100, maxMs: 2_000, factor: 2 };

  it('grows exponentially until the cap', () => {
    const upper = [0, 1, 2, 3, 4, 5, 6].map((attempt) => backoffDelay(attempt, options, () => 1));
    expect(upper).toEqual([100, 200, 400, 800, 1_600, 2_000, 2_000]);
  });

  it('keeps at least half of the capped delay and adds jitter in the other half', () => {
    expect(backoffDelay(3, options, () => 0)).toBe(400);
    expect(backoffDelay(3, options, () => 0.5)).toBe(600);
    for (let i = 0; i < 200; i++) {
      const delay = backoffDelay(10, options);
      expect(delay).toBeGreaterThanOrEqual(1_000);
      expect(delay).toBeLessThanOrEqual(2_000);
    }
  });

  it('treats negative or fractional attempts as the nearest lower whole attempt, never below the first', () => {
    expect(backoffDelay(-3, options, () => 1)).toBe(100);
    expect(backoffDelay(1.7, options, () => 1)).toBe(200);
  });

  it('never exceeds the cap for very large attempts', () => {
    expect(backoffDelay(10_000, options, () => 1)).toBe(2_000);
  });
});
