import { waitFor } from '../../../../test/support/wait-for';
import { LARGE_LOAD_MARKETS, LoadGarbage } from './load-garbage';

function turns(count: number): Promise<void> {
  return count === 0
    ? Promise.resolve()
    : new Promise((resolve) => setImmediate(() => void turns(count - 1).then(resolve)));
}

describe('LoadGarbage', () => {
  it('runs three collections on turns of their own for the loads that end together', async () => {
    const collect = jest.fn();
    const garbage = new LoadGarbage(() => collect);
    garbage.release(LARGE_LOAD_MARKETS);
    garbage.release(LARGE_LOAD_MARKETS);
    expect(collect).not.toHaveBeenCalled();
    await waitFor(() => collect.mock.calls.length === 3, { timeoutMs: 2000, intervalMs: 1 });
    await turns(10);
    expect(collect).toHaveBeenCalledTimes(3);
  });

  it('leaves a small load to V8: a collection would cost the whole heap for little garbage', async () => {
    const collect = jest.fn();
    const garbage = new LoadGarbage(() => collect);
    garbage.release(LARGE_LOAD_MARKETS - 1);
    await turns(10);
    expect(collect).not.toHaveBeenCalled();
  });

  it('starts the rounds again for a load that ends while they run', async () => {
    let collections = 0;
    const garbage = new LoadGarbage(() => () => {
      // Another load ends on the turn after the second round.
      if (++collections === 2) setImmediate(() => garbage.release(LARGE_LOAD_MARKETS));
    });
    garbage.release(LARGE_LOAD_MARKETS);
    await waitFor(() => collections === 5, { timeoutMs: 2000, intervalMs: 1 });
    await turns(10);
    expect(collections).toBe(5);
  });

  it('lets timers run between collections', async () => {
    const order: string[] = [];
    // A collection takes a while: a timer due meanwhile runs before the next one.
    const garbage = new LoadGarbage(() => () => {
      const end = performance.now() + 3;
      while (performance.now() < end);
      order.push('collect');
    });
    garbage.release(LARGE_LOAD_MARKETS);
    const timer = setInterval(() => order.push('timer'), 0);
    await waitFor(() => order.filter((step) => step === 'collect').length === 3, {
      timeoutMs: 2000,
      intervalMs: 1,
    });
    clearInterval(timer);
    const collections = order.flatMap((step, index) => (step === 'collect' ? [index] : []));
    expect(order.slice(collections[0], collections[2])).toContain('timer');
  });

  it('gives back the heap a load left behind with V8 own collector', async () => {
    const garbage = new LoadGarbage();
    let load: Array<{ id: number; name: string; prices: number[] }> | undefined = [];
    for (let i = 0; i < 200_000; i++) load.push({ id: i, name: `market ${i}`, prices: [i, i + 1] });
    const loaded = process.memoryUsage().heapUsed;
    load = undefined;
    garbage.release(LARGE_LOAD_MARKETS);
    expect(load).toBeUndefined();
    await waitFor(() => process.memoryUsage().heapUsed < loaded - 20_000_000, {
      timeoutMs: 2000,
      intervalMs: 1,
    });
  });
});

describe('v8Collect', () => {
  afterEach(() => jest.resetModules());

  it('is a collection that does nothing on a Node that does not expose gc to a new context', () => {
    jest.doMock('node:vm', () => ({
      runInNewContext: () => {
        throw new ReferenceError('gc is not defined');
      },
    }));
    let collect: (() => void) | undefined;
    jest.isolateModules(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { v8Collect } = require('./load-garbage') as typeof import('./load-garbage');
      collect = v8Collect();
    });
    expect(typeof collect).toBe('function');
    expect(() => collect?.()).not.toThrow();
  });
});
