/** A turn of the event loop that took longer than this halves the next turn's batch. */
const TURN_BUDGET_MS = 4;
/** Batches double while turns take under half the budget, up to this many items. */
const MAX_BATCH = 64;

/**
 * Work that arrives in bursts, run in order, a batch per turn of the event
 * loop: this process's own messages on their way to its own handlers
 * (NatsLink's in-process echo), and the odds replica's changes on their way
 * to its subscribers. Running a burst at once (a poll's frames, each fanned
 * out to every subscriber) held the whole of it in one turn: timers, the
 * ingest lease's renewal among them, waited behind it. One item per turn
 * paid a loop iteration (a poll of the event queue, the immediate's
 * bookkeeping) per item instead: for a big book's poll of 800 changed
 * matches, 800 iterations. So the batch adapts: a turn's length, measured
 * from its start to the next turn's start, includes the items' microtasks;
 * cheap items go many to a turn, and one that takes longer than the budget
 * goes alone.
 */
export class PacedQueue {
  private queue: (() => void)[] = [];
  private head = 0;
  private scheduled = false;
  private batch = 1;
  /** When the turn delivering the current batch started; 0 between bursts. */
  private turnStarted = 0;

  push(deliver: () => void): void {
    this.queue.push(deliver);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.next);
  }

  private readonly next = (): void => {
    const now = performance.now();
    if (this.turnStarted > 0) {
      const took = now - this.turnStarted;
      if (took > TURN_BUDGET_MS) this.batch = Math.max(1, this.batch >> 1);
      else if (took < TURN_BUDGET_MS / 2) this.batch = Math.min(MAX_BATCH, this.batch * 2);
    }
    this.turnStarted = now;
    try {
      for (let left = this.batch; left > 0 && this.head < this.queue.length; left--) this.take()();
    } finally {
      // Also when a handler threw: the rest are still delivered.
      if (this.head < this.queue.length) setImmediate(this.next);
      else {
        this.scheduled = false;
        this.turnStarted = 0;
      }
    }
  };

  private take(): () => void {
    const deliver = this.queue[this.head++];
    if (this.head === this.queue.length) {
      this.queue = [];
      this.head = 0;
    } else if (this.head >= 1024 && this.head * 2 >= this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    return deliver;
  }
}
