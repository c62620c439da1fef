/**
 * Items waiting for a time, grouped by that time. Many markets share one cutoff
 * (a matchup's start), so a min-heap of the distinct times plus a bucket per time
 * keeps add, remove and "what is due" cheap. Heap entries whose bucket emptied are
 * skipped lazily.
 */
export class CutoffQueue<T> {
  private readonly buckets = new Map<number, Set<T>>();
  private readonly heap: number[] = [];
  /** Times present in the heap, so a bucket that empties and refills is not pushed twice. */
  private readonly inHeap = new Set<number>();

  add(at: number, item: T): void {
    let bucket = this.buckets.get(at);
    if (!bucket) {
      bucket = new Set();
      this.buckets.set(at, bucket);
      if (!this.inHeap.has(at)) this.push(at);
    }
    bucket.add(item);
  }

  remove(at: number, item: T): void {
    const bucket = this.buckets.get(at);
    if (!bucket) return;
    bucket.delete(item);
    if (bucket.size === 0) this.buckets.delete(at);
  }

  /** The earliest time with items waiting. */
  next(): number | undefined {
    this.dropStale();
    return this.heap[0];
  }

  /** Removes and returns every item whose time is at or before `now`. */
  takeDue(now: number): T[] {
    const due: T[] = [];
    for (;;) {
      this.dropStale();
      const at = this.heap[0];
      if (at === undefined || at > now) return due;
      this.pop();
      const bucket = this.buckets.get(at);
      this.buckets.delete(at);
      if (bucket) for (const item of bucket) due.push(item);
    }
  }

  private dropStale(): void {
    while (this.heap.length > 0 && !this.buckets.has(this.heap[0])) this.pop();
  }

  private push(value: number): void {
    this.inHeap.add(value);
    const heap = this.heap;
    heap.push(value);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heap[parent] <= value) break;
      heap[i] = heap[parent];
      i = parent;
    }
    heap[i] = value;
  }

  private pop(): void {
    const heap = this.heap;
    this.inHeap.delete(heap[0]);
    const last = heap.pop();
    if (last === undefined || heap.length === 0) return;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child = right < heap.length && heap[right] < heap[left] ? right : left;
      if (heap[child] >= last) break;
      heap[i] = heap[child];
      i = child;
    }
    heap[i] = last;
  }
}
