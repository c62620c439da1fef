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
