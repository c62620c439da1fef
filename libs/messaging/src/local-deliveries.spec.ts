import { LocalDeliveries } from './local-deliveries';

function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

describe('LocalDeliveries', () => {
  it('delivers in the order pushed, one per turn of the event loop', async () => {
    const deliveries = new LocalDeliveries();
    const seen: number[] = [];
    for (let n = 0; n < 3; n++) deliveries.push(() => seen.push(n));
    expect(seen).toEqual([]);
    await turn();
    expect(seen).toEqual([0]);
    await turn();
    expect(seen).toEqual([0, 1]);
    await turn();
    expect(seen).toEqual([0, 1, 2]);
  });

  it('keeps order across a long backlog and pushes made while it drains', async () => {
    const deliveries = new LocalDeliveries();
    const seen: number[] = [];
    for (let n = 0; n < 3000; n++) {
      deliveries.push(() => {
        seen.push(n);
        if (n === 1500) deliveries.push(() => seen.push(-1));
      });
    }
    while (seen.length < 3001) await turn();
    expect(seen.slice(0, 3000)).toEqual(Array.from({ length: 3000 }, (_, n) => n));
    expect(seen[3000]).toBe(-1);
  });
});
