import { ReadCache } from './read-cache';

describe('ReadCache', () => {
  it('serves a fresh answer from memory and reloads once it is too old', async () => {
    const cache = new ReadCache(1000, 10);
    let loads = 0;
    const load = () => Promise.resolve(++loads);
    expect(await cache.get('a', 0, load)).toBe(1);
    expect(await cache.get('a', 999, load)).toBe(1);
    expect(await cache.get('a', 1000, load)).toBe(2);
  });

  it('drops everything on clear', async () => {
    const cache = new ReadCache(1000, 10);
    let loads = 0;
    const load = () => Promise.resolve(++loads);
    await cache.get('a', 0, load);
    cache.clear();
    expect(await cache.get('a', 1, load)).toBe(2);
  });

  it('does not keep a load that was under way when the cache was cleared', async () => {
    const cache = new ReadCache(1000, 10);
    let release: (value: string) => void = () => undefined;
    const slow = cache.get('a', 0, () => new Promise<string>((resolve) => (release = resolve)));
    cache.clear();
    release('stale');
    expect(await slow).toBe('stale');
    expect(await cache.get('a', 1, () => Promise.resolve('fresh'))).toBe('fresh');
  });

  it('forgets failed loads and stays bounded', async () => {
    const cache = new ReadCache(1000, 2);
    await expect(cache.get('a', 0, () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get('a', 1, () => Promise.resolve('up'))).toBe('up');
    await cache.get('b', 1, () => Promise.resolve(1));
    await cache.get('c', 1, () => Promise.resolve(1));
    expect(cache.size).toBeLessThanOrEqual(2);
  });

  it('does not trust entries from the future (a clock moved back)', async () => {
    const cache = new ReadCache(1000, 10);
    await cache.get('a', 5000, () => Promise.resolve('old'));
    expect(await cache.get('a', 10, () => Promise.resolve('new'))).toBe('new');
  });

  it('judges a stamped load current until a clear or its age limit, as get would', () => {
    const cache = new ReadCache(1000, 10);
    const stamp = cache.stamp(5000);
    expect(cache.isCurrent(stamp, 5999)).toBe(true);
    expect(cache.isCurrent(stamp, 6000)).toBe(false);
    expect(cache.isCurrent(stamp, 4999)).toBe(false);
    cache.clear();
    expect(cache.isCurrent(stamp, 5000)).toBe(false);
    expect(cache.isCurrent(cache.stamp(5000), 5000)).toBe(true);
  });
});
