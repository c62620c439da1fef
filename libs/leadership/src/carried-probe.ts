import { settleWithin } from '@app/health';

/**
 * A lease's PostgreSQL probe that may carry a write of the holder's instead of `SELECT 1`: a
 * write that answers in time proves PostgreSQL reachable, one that is late proves it is not (as
 * a late ping would), and one that fails leaves the verdict to `ping`, since it may have failed
 * for a reason of its own (a constraint, a missing table) with PostgreSQL perfectly reachable.
 */
export async function probeCarrying(
  write: (() => Promise<unknown>) | undefined,
  ping: () => Promise<boolean>,
  timeoutMs: number,
): Promise<boolean> {
  if (write) {
    const outcome = await settleWithin(Promise.resolve().then(write), timeoutMs);
    if (outcome !== 'failed') return outcome === 'answered';
  }
  return ping();
}
