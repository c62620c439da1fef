import { LastKnown } from './last-known';

const outage = () =>
  Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));

describe('LastKnown', () => {
  it('answers the last stored value while PostgreSQL is out of reach', async () => {
    const known = new LastKnown<string>(10);
    await expect(known.read('a', () => Promise.resolve('first'))).resolves.toBe('first');
    await expect(known.read('a', () => Promise.resolve('second'))).resolves.toBe('second');
    await expect(known.read('a', outage)).resolves.toBe('second');
  });

  it('still fails for a key never read, and for errors that are not an outage', async () => {
    const known = new LastKnown<string>(10);
    await expect(known.read('never', outage)).rejects.toThrow('ECONNREFUSED');
    await known.read('a', () => Promise.resolve('kept'));
    await expect(known.read('a', () => Promise.reject(new Error('syntax error')))).rejects.toThrow(
      'syntax error',
    );
  });

  it('keeps at most maxEntries, dropping the least recently stored', async () => {
    const known = new LastKnown<number>(2);
    await known.read('a', () => Promise.resolve(1));
    await known.read('b', () => Promise.resolve(2));
    await known.read('a', () => Promise.resolve(3));
    await known.read('c', () => Promise.resolve(4));
    expect(known.size).toBe(2);
    await expect(known.read('b', outage)).rejects.toThrow();
    await expect(known.read('a', outage)).resolves.toBe(3);
  });
});

describe('LastKnown, concurrent reads', () => {
  it('shares one load among the reads of a key that overlap it', async () => {
    const known = new LastKnown<string>(10);
    let loads = 0;
    let finish!: (value: string) => void;
    const load = () => {
      loads += 1;
      return new Promise<string>((resolve) => (finish = resolve));
    };
    const reads = Array.from({ length: 50 }, () => known.read('match:7', load));
    const other = known.read('match:8', () => Promise.resolve('other'));
    finish('state');
    await expect(Promise.all(reads)).resolves.toEqual(Array(50).fill('state'));
    await expect(other).resolves.toBe('other');
    expect(loads).toBe(1);
    const later = known.read('match:7', load);
    expect(loads).toBe(2);
    finish('later');
    await expect(later).resolves.toBe('later');
  });

  it('gives each overlapping read the outage fallback of a shared load that failed', async () => {
    const known = new LastKnown<string>(10);
    await known.read('a', () => Promise.resolve('kept'));
    let loads = 0;
    const failing = () => {
      loads += 1;
      return outage();
    };
    await expect(Promise.all([known.read('a', failing), known.read('a', failing)])).resolves.toEqual([
      'kept',
      'kept',
    ]);
    expect(loads).toBe(1);
    await expect(known.read('b', failing)).rejects.toThrow('ECONNREFUSED');
  });
});
