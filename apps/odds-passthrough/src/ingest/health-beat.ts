/**
 * When the odds ingest reports its feed health. It goes out after every
 * poll; a timer of its own sends it only while a poll is late (the poll
 * interval and one beat past the last report), and then every beat, so a
 * stalled ingest is still heard from. Reporting on a fixed one-second timer
 * besides the polls woke a big process once more a second and published
 * everything twice.
 */
export class HealthBeat {
  private timer?: NodeJS.Timeout;
  private stopped = true;

  constructor(
    private readonly report: () => void,
    private readonly pollMs: number,
    private readonly everyMs: number,
  ) {}

  start(): void {
    this.stopped = false;
    this.arm(this.everyMs);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** A poll ended (whatever its outcome): report now, and again only if the next one is late. */
  polled(): void {
    if (this.stopped) return;
    this.report();
    this.arm(this.pollMs + this.everyMs);
  }

  private arm(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.report();
      this.arm(this.everyMs);
    }, ms);
    this.timer.unref();
  }
}
