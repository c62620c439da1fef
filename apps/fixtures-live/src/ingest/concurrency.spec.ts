import { ConcurrencyGate, forEachLimited } from './concurrency';

describe('forEachLimited', () => {
  it('never runs more than the limit at once and runs every item', async () => {
    let running = 0;
    let peak = 0;
    const done: number[] = [];
    await forEachLimited([1, 2, 3, 4, 5, 6, 7], 3, async (item) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setImmediate(resolve));
      done.push(item);
      running--;
    });
    expect(peak).toBe(3);
    expect(done.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('keeps going past failures and reports them in order', async () => {
    const failures = await forEachLimited(['a', 'b', 'c'], 2, (item) =>
      item === 'b' || item === 'c' ? Promise.reject(new Error(item)) : Promise.resolve(),
    );
    expect(failures.map((failure) => failure.item)).toEqual(['b', 'c']);
  });

  it('handles an empty list', async () => {
    await expect(forEachLimited([], 4, () => Promise.resolve())).resolves.toEqual([]);
  });
});

describe('ConcurrencyGate', () => {
  it('never runs more than its limit at once and runs every task', async () => {
    const gate = new ConcurrencyGate(3);
    let running = 0;
    let peak = 0;
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        gate.run(async () => {
          running += 1;
          peak = Math.max(peak, running);
          await new Promise((resolve) => setImmediate(resolve));
          running -= 1;
          return index;
        }),
      ),
    );
    expect(peak).toBe(3);
    expect(results).toEqual(Array.from({ length: 20 }, (_, index) => index));
  });

  it('frees its slot when a task fails', async () => {
    const gate = new ConcurrencyGate(1);
    await expect(gate.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(gate.run(() => Promise.resolve('next'))).resolves.toBe('next');
  });
});
