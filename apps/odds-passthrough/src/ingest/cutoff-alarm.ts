import type { Clock } from '@app/clock';

export interface CutoffAlarmOptions {
  /** The book's next cutoff on the injected clock, if any. */
  readonly nextCutoff: () => number | undefined;
  /** Publishes what is due; false when the book cannot be checked now (a load half applied). */
  readonly check: () => boolean;
  /**
   * The longest wait: a clock that moved is seen within it even when nothing
   * calls `recheck` (the ingest does after every poll).
   */
  readonly capMs: number;
  /** The wait after a check that could not run. */
  readonly retryMs: number;
}

/**
 * Wakes the odds ingest when the book's next cutoff passes. Checking on a
 * fixed period woke the process five times a second for nothing most of the
 * time, and each wake-up of a big process costs CPU; waiting for the cutoff
 * itself also publishes the lock on time instead of up to a period late.
 * `arm` is called whenever the book changed (a sooner cutoff re-arms it),
 * `recheck` after every poll, so the cap only matters while polls stall.
 */
export class CutoffAlarm {
  private timer?: NodeJS.Timeout;
  /** When the armed timer fires, on the monotonic clock. */
  private due = Number.POSITIVE_INFINITY;
  private stopped = true;

  constructor(
    private readonly clock: Clock,
    private readonly options: CutoffAlarmOptions,
  ) {}

  start(): void {
    this.stopped = false;
    this.arm();
  }

  stop(): void {
    this.stopped = true;
    this.disarm();
  }

  /** Arms for the book's next cutoff, unless the alarm already rings sooner. */
  arm(): void {
    const next = this.options.nextCutoff();
    // One millisecond past the cutoff: a timer may fire a fraction early by the wall clock.
    const wait = next === undefined ? this.options.capMs : Math.max(0, next - this.clock.now() + 1);
    this.armIn(Math.min(wait, this.options.capMs));
  }

  /** Checks now (what is due goes out, a clock that moved is seen) and arms for what follows. */
  recheck(): void {
    if (this.stopped) return;
    this.disarm();
    this.ring();
  }

  private armIn(waitMs: number): void {
    if (this.stopped) return;
    const due = performance.now() + waitMs;
    if (this.timer && due >= this.due) return;
    this.disarm();
    this.due = due;
    this.timer = setTimeout(() => this.ring(), waitMs);
    this.timer.unref();
  }

  private ring(): void {
    this.timer = undefined;
    this.due = Number.POSITIVE_INFINITY;
    if (this.stopped) return;
    if (this.options.check()) this.arm();
    else this.armIn(this.options.retryMs);
  }

  private disarm(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.due = Number.POSITIVE_INFINITY;
  }
}
