import { CutoffQueue } from './cutoff-queue';

describe('CutoffQueue', () => {
  it('hands out items in time order, only when due', () => {
    const q = new CutoffQueue<string>();
    q.add(30, 'c');
    q.add(10, 'a1');
    q.add(20, 'b');
    q.add(10, 'a2');
    expect(q.next()).toBe(10);
    expect(q.takeDue(9)).toEqual([]);
    expect(q.takeDue(10).sort()).toEqual(['a1', 'a2']);
    expect(q.next()).toBe(20);
    expect(q.takeDue(100)).toEqual(['b', 'c']);
    expect(q.next()).toBeUndefined();
  });

  it('forgets removed items and skips emptied times', () => {
    const q = new CutoffQueue<string>();
    q.add(10, 'a');
    q.add(20, 'b');
    q.remove(10, 'a');
    expect(q.next()).toBe(20);
    q.add(10, 'a');
    q.remove(10, 'a');
    q.add(10, 'again');
    expect(q.takeDue(15)).toEqual(['again']);
    expect(q.takeDue(15)).toEqual([]);
  });

  it('keeps the heap ordered under many random times', () => {
    const q = new CutoffQueue<number>();
    const times = Array.from({ length: 500 }, (_, i) => (i * 7919) % 1000);
    times.forEach((t, i) => q.add(t, i));
    const order: number[] = [];
    for (let t = q.next(); t !== undefined; t = q.next()) {
      order.push(t);
      q.takeDue(t);
    }
    expect(order).toEqual([...new Set(times)].sort((a, b) => a - b));
  });
});
