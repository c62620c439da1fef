import { backoffDelay } from './backoff';

describe('backoffDelay', () => {
  const policy = { initialMs: 100, maxMs: 1000, jitter: 0.5 };

  it('doubles with each attempt up to the ceiling', () => {
    const top = () => 1;
    expect([0, 1, 2, 3, 4, 10].map((a) => backoffDelay(a, policy, top))).toEqual([
      100, 200, 400, 800, 1000, 1000,
    ]);
  });

  it('randomises within the jitter share below the ceiling', () => {
    expect(backoffDelay(3, policy, () => 0)).toBe(400);
    expect(backoffDelay(3, policy, () => 0.5)).toBe(600);
  });

  it('never goes negative or past the maximum for absurd attempts', () => {
    expect(backoffDelay(-5, policy, () => 0)).toBe(50);
    expect(backoffDelay(1e9, policy, () => 1)).toBe(1000);
  });
});
