import { probeCarrying } from './carried-probe';

describe('probeCarrying', () => {
  const never = () => new Promise<never>(() => undefined);

  it('pings when it carries no write', async () => {
    const ping = jest.fn(() => Promise.resolve(false));
    expect(await probeCarrying(undefined, ping, 100)).toBe(false);
    expect(ping).toHaveBeenCalledTimes(1);
  });

  it('counts a write answered in time as PostgreSQL reachable, without a ping', async () => {
    const ping = jest.fn(() => Promise.resolve(false));
    const write = jest.fn(() => Promise.resolve('INSERT 0 1'));
    expect(await probeCarrying(write, ping, 100)).toBe(true);
    expect(write).toHaveBeenCalledTimes(1);
    expect(ping).not.toHaveBeenCalled();
  });

  it('counts a write still unanswered at the deadline as PostgreSQL out of reach, without a ping', async () => {
    const ping = jest.fn(() => Promise.resolve(true));
    const started = performance.now();
    expect(await probeCarrying(never, ping, 50)).toBe(false);
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
    expect(ping).not.toHaveBeenCalled();
  });

  it('leaves the verdict to a ping when the write fails, also when it throws before its promise', async () => {
    for (const write of [
      () => Promise.reject(new Error('relation "odds.feeds" does not exist')),
      () => {
        throw new Error('synchronous');
      },
    ]) {
      const ping = jest.fn(() => Promise.resolve(true));
      expect(await probeCarrying(write, ping, 100)).toBe(true);
      expect(ping).toHaveBeenCalledTimes(1);
    }
  });
});
