/*
 * Work too large for one turn of the event loop (a book of 100,000 markets
 * parsed, loaded, seeded) is written as a generator that yields between
 * parts: `drain` runs it in one go (tests, small inputs), `inParts` lets the
 * event loop run between parts, so lease renewals and requests never wait
 * behind a whole book.
 */

/** A computation cut into parts: each `yield` is a point where the event loop may run. */
export type Parts<T> = Generator<void, T, void>;

/**
 * Resolves once the event loop has run its due timers and polled for I/O.
 * One `setImmediate` is not enough: called from an I/O callback, it runs in
 * the same loop iteration, before any timer, so a lease renewal due now
 * would still wait behind the work that follows.
 *
 * Node arms its one libuv timer at least a millisecond past the loop's
 * latest clock reading. A timer that came due during a timer callback, with
 * the clock read after that (any `setTimeout` does), can therefore still
 * wait for the next part when these two turns take under a millisecond;
 * it never waits longer than that part.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}

/** Runs a parted computation to its end in one go. */
export function drain<T>(parts: Parts<T>): T {
  for (;;) {
    const step = parts.next();
    if (step.done) return step.value;
  }
}

/** Runs a parted computation to its end, letting the event loop run between parts. */
export async function inParts<T>(parts: Parts<T>): Promise<T> {
  for (;;) {
    const step = parts.next();
    if (step.done) return step.value;
    await nextTurn();
  }
}

/** Yields after every `every` items: for a loop over a large list inside a parted computation. */
export function* mapInParts<T, R>(items: readonly T[], every: number, map: (item: T) => R): Parts<R[]> {
  const out = new Array<R>(items.length);
  for (let i = 0; i < items.length; i++) {
    if (i > 0 && i % every === 0) yield;
    out[i] = map(items[i]);
  }
  return out;
}
