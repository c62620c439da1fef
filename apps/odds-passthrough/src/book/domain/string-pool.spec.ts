import { StringPool } from './string-pool';

describe('StringPool', () => {
  it('answers every string with an equal one, also past the strings it keeps at most', () => {
    const pool = new StringPool();
    const unequal: string[] = [];
    for (let i = 0; i < 120_000; i++) {
      const text = `Over ${i % 60_000}.5`;
      if (pool.share(text) !== text) unequal.push(text);
    }
    expect(unequal).toEqual([]);
    expect(pool.size).toBeLessThanOrEqual(50_000);
    expect(pool.has('Over 59999.5')).toBe(true);
  });
});
