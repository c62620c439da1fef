import { CutoffQueue } from './cutoff-queue';
import type { HeldMarket } from './held-book';

/**
 * The unlocked markets of an IngestBook, by the cutoff that will lock them.
 * Each market's `queuedAt` says where it waits, kept in step with the queue,
 * so a market is never queued twice nor left behind once withdrawn. Part of
 * IngestBook; nothing else holds one.
 */
export class MarketCutoffs {
  private readonly queue = new CutoffQueue<HeldMarket>();

  /** The earliest cutoff waited for. */
  next(): number | undefined {
    return this.queue.next();
  }

  /** Takes the markets whose cutoff is at or before `now` off the queue. */
  takeDue(now: number): HeldMarket[] {
    const due = this.queue.takeDue(now);
    for (const market of due) market.queuedAt = undefined;
    return due;
  }

  /** Makes the market wait for `cutoff`, or for nothing when undefined (it is locked already). */
  waitFor(market: HeldMarket, cutoff: number | undefined): void {
    if (market.queuedAt === cutoff) return;
    this.forget(market);
    if (cutoff === undefined) return;
    market.queuedAt = cutoff;
    this.queue.add(cutoff, market);
  }

  forget(market: HeldMarket): void {
    if (market.queuedAt === undefined) return;
    this.queue.remove(market.queuedAt, market);
    market.queuedAt = undefined;
  }
}
