/**
 * Waits that can be cut short all at once: a retry loop pauses here, and an
 * event that makes waiting pointless (a reconnect, a shutdown) wakes every
 * pause. Timers do not hold the process open.
 */
export class WakeablePauses {
  private readonly wakers = new Set<() => void>();

  pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      timer.unref();
      this.wakers.add(done);
    });
  }

  wakeAll(): void {
    for (const wake of [...this.wakers]) wake();
  }
}
