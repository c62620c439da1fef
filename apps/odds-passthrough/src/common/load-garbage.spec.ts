import { LoadGarbage } from './load-garbage';

function nextImmediate(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

describe('LoadGarbage', () => {
  it('collects once for the loads that end in one turn, and again for a later load', async () => {
    const collect = jest.fn();
    const garbage = new LoadGarbage(() => collect);
    garbage.release();
    garbage.release();
    garbage.release();
    expect(collect).not.toHaveBeenCalled();
    await nextImmediate();
    expect(collect).toHaveBeenCalledTimes(1);
    garbage.release();
    await nextImmediate();
    expect(collect).toHaveBeenCalledTimes(2);
  });

  it('gives back the heap a load left behind with V8 own collector', async () => {
    const garbage = new LoadGarbage();
    let load: Array<{ id: number; name: string; prices: number[] }> | undefined = [];
    for (let i = 0; i < 200_000; i++) load.push({ id: i, name: `market ${i}`, prices: [i, i + 1] });
    const loaded = process.memoryUsage().heapUsed;
    load = undefined;
    garbage.release();
    await nextImmediate();
    expect(load).toBeUndefined();
    expect(process.memoryUsage().heapUsed).toBeLessThan(loaded - 20_000_000);
  });
});
