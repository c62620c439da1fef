import { PacedQueue } from './paced-queue';

function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function busy(ms: number): void {
  for (const started = performance.now(); performance.now() - started < ms;);
}

describe('PacedQueue', () => {
  it('delivers nothing in the turn of the push, then in the order pushed', async () => {
    const deliveries = new PacedQueue();
    const seen: number[] = [];
    for (let n = 0; n < 3; n++) deliveries.push(() => seen.push(n));
    expect(seen).toEqual([]);
    while (seen.length < 3) await turn();
    expect(seen).toEqual([0, 1, 2]);
  });

  it('keeps order across a long backlog and pushes made while it drains', async () => {
    const deliveries = new PacedQueue();
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

  it('hands cheap messages over many to a turn', async () => {
    const deliveries = new PacedQueue();
    let seen = 0;
    for (let n = 0; n < 1000; n++) deliveries.push(() => (seen += 1));
    let turns = 0;
    while (seen < 1000) {
      await turn();
      turns += 1;
    }
    // One per turn took 1,000 turns; doubling batches reach 64 within seven.
    expect(turns).toBeLessThan(40);
  });

  it('hands a message whose handling outlasts the budget over alone, its microtasks counted', async () => {
    const deliveries = new PacedQueue();
    const seen: number[] = [];
    for (let n = 0; n < 6; n++) {
      deliveries.push(() => {
        seen.push(n);
        // The work continues in a microtask, as a Nest handler's does.
        void Promise.resolve().then(() => busy(6));
      });
    }
    const perTurn: number[] = [];
    while (seen.length < 6) {
      const before = seen.length;
      await turn();
      perTurn.push(seen.length - before);
    }
    expect(seen).toEqual([0, 1, 2, 3, 4, 5]);
    expect(Math.max(...perTurn)).toBe(1);
  });
});
