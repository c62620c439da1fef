/**
 * Resolves once the event loop has run its due timers and polled for I/O.
 * One `setImmediate` is not enough: called from an I/O callback, it runs in
 * the same loop iteration, before any timer, so a lease renewal due now
 * would still wait behind the work that follows.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}
