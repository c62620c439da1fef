import { EtagCache } from './etag-cache';

describe('EtagCache', () => {
  it('returns the last tag and body stored for a URL', () => {
    const cache = new EtagCache();
    cache.set('/a', '"1"', { n: 1 });
    cache.set('/a', '"2"', { n: 2 });
    expect(cache.get('/a')).toEqual({ etag: '"2"', body: { n: 2 } });
    expect(cache.get('/b')).toBeUndefined();
  });

  it('drops the least recently used URL when full', () => {
    const cache = new EtagCache(2);
    cache.set('/a', '"a"', 'A');
    cache.set('/b', '"b"', 'B');
    cache.get('/a');
    cache.set('/c', '"c"', 'C');
    expect(cache.get('/b')).toBeUndefined();
    expect(cache.get('/a')?.body).toBe('A');
    expect(cache.get('/c')?.body).toBe('C');
    expect(cache.size).toBe(2);
  });

  it('forgets a URL on delete and everything on clear', () => {
    const cache = new EtagCache();
    cache.set('/a', '"a"', 1);
    cache.set('/b', '"b"', 2);
    cache.delete('/a');
    expect(cache.get('/a')).toBeUndefined();
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it('refuses a size below one', () => {
    expect(() => new EtagCache(0)).toThrow(RangeError);
  });
});
