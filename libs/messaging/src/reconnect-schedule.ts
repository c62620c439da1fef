import { backoffDelay, type BackoffPolicy, DEFAULT_BACKOFF } from '@app/clock';

/**
 * Turns a per-attempt backoff into the "how long to wait now" question the
 * NATS client asks, possibly several times per attempt: the delay of an
 * attempt (jitter included) is fixed until that attempt's window has passed.
 */
export class ReconnectSchedule {
  private attempt = -1;
  private windowStart = 0;
  private currentDelay = 0;

  constructor(
    private readonly now: () => number,
    private readonly policy: BackoffPolicy = DEFAULT_BACKOFF,
    private readonly random: () => number = Math.random,
  ) {}

  delay(): number {
    const now = this.now();
    if (this.attempt < 0 || now >= this.windowStart + this.currentDelay) {
      this.attempt += 1;
      this.windowStart = now;
      this.currentDelay = backoffDelay(this.attempt, this.policy, this.random);
    }
    return this.currentDelay;
  }

  reset(): void {
    this.attempt = -1;
  }
}
