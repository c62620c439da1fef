import { SharedLoads } from './shared-loads';

describe('SharedLoads', () => {
  it('shares one load among the calls for a key that overlap it, and starts afresh after', async () => {
    const shared = new SharedLoads<number, string>();
    let loads = 0;
    let finish!: (value: string) => void;
    const load = () => {
      loads += 1;
      return new Promise<string>((resolve) => (finish = resolve));
    };
    const reads = Array.from({ length: 50 }, () => shared.run(7, load));
    const other = shared.run(8, () => Promise.resolve('other'));
    finish('state');
    await expect(Promise.all(reads)).resolves.toEqual(Array(50).fill('state'));
    await expect(other).resolves.toBe('other');
    expect(loads).toBe(1);
    const later = shared.run(7, load);
    expect(loads).toBe(2);
    finish('later');
    await expect(later).resolves.toBe('later');
  });

  it('hands a failure to every call that shared the load, then loads again', async () => {
    const shared = new SharedLoads<string, string>();
    let loads = 0;
    const failing = () => {
      loads += 1;
      return Promise.reject(new Error('connect ECONNREFUSED'));
    };
    const results = await Promise.allSettled([shared.run('a', failing), shared.run('a', failing)]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(loads).toBe(1);
    await expect(shared.run('a', () => Promise.resolve('up'))).resolves.toBe('up');
  });
});
