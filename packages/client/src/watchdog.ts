/** The timer functions a watchdog uses; tests pass fake ones. */
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const REAL_TIMERS: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * Calls `onSilence` once when `kick` has not been called for `timeoutMs`.
 * A stream kicks it on every frame; silence for three heartbeat periods
 * means the socket is dead even when TCP has not noticed.
 */
export class Watchdog {
  private handle: unknown;

  constructor(
    private readonly timeoutMs: number,
    private readonly onSilence: () => void,
    private readonly timers: Timers = REAL_TIMERS,
  ) {}

  kick(): void {
    this.stop();
    this.handle = this.timers.setTimeout(() => {
      this.handle = undefined;
      this.onSilence();
    }, this.timeoutMs);
  }

  stop(): void {
    if (this.handle !== undefined) this.timers.clearTimeout(this.handle);
    this.handle = undefined;
  }

  get armed(): boolean {
    return this.handle !== undefined;
  }
}

/** How long a stream may stay silent: three heartbeat periods. */
export function silenceLimitMs(heartbeatMs: number): number {
  return heartbeatMs * 3;
}
