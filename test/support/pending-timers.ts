import { createHook } from 'node:async_hooks';

/**
 * How many timers of `delayMs` that `work` armed are still pending once it
 * has finished: a deadline left behind wakes the process when it expires,
 * long after its answer.
 */
export async function timersLeftPending(delayMs: number, work: () => Promise<void>): Promise<number> {
  const pending = new Set<number>();
  const hook = createHook({
    init(id, type, _trigger, resource) {
      if (type === 'Timeout' && (resource as { _idleTimeout?: number })._idleTimeout === delayMs)
        pending.add(id);
    },
    destroy(id) {
      pending.delete(id);
    },
  }).enable();
  try {
    await work();
    // Destroy hooks of cleared timers run on the next turn.
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    hook.disable();
  }
  return pending.size;
}
