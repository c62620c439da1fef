/**
 * This process's own messages on their way to its own handlers (NatsLink's
 * in-process echo), one per turn of the event loop, in the order published.
 * Handing a burst over at once (a poll's frames, each fanned out to every
 * subscriber) ran all of its handling in one turn: timers, the ingest
 * lease's renewal among them, waited behind it. A handler's work continues
 * in microtasks, which run before the next turn, so a turn holds one
 * message's handling, however long the burst.
 */
export class LocalDeliveries {
  private queue: (() => void)[] = [];
  private head = 0;
  private scheduled = false;

  push(deliver: () => void): void {
    this.queue.push(deliver);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.next);
  }

  private readonly next = (): void => {
    const deliver = this.queue[this.head++];
    if (this.head === this.queue.length) {
      this.queue = [];
      this.head = 0;
    } else if (this.head >= 1024 && this.head * 2 >= this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    // Scheduled before delivering, so a handler that throws cannot stall the rest.
    if (this.queue.length > 0) setImmediate(this.next);
    else this.scheduled = false;
    deliver();
  };
}
