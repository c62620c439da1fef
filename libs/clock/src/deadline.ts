/**
 * Runs `work` with a signal that aborts after `ms` with a `TimeoutError`
 * (what `AbortSignal.timeout` aborts with), and clears the timer as soon as
 * `work` settles. `AbortSignal.timeout`'s own timer cannot be cleared: every
 * request left one behind that woke the process when it expired, long after
 * its answer (ADR 021).
 */
export async function withDeadline<T>(ms: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
    ms,
  );
  timer.unref();
  try {
    return await work(deadline.signal);
  } finally {
    clearTimeout(timer);
  }
}
