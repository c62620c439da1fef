/**
 * The one source of "now" for domain decisions (key expiry, cache freshness,
 * clock projection, cutoffs), so tests can move time instead of waiting.
 */
export abstract class Clock {
  abstract now(): number;

  date(): Date {
    return new Date(this.now());
  }
}

export class SystemClock extends Clock {
  now(): number {
    return Date.now();
  }
}

/** A clock that only moves when told to; for tests of both apps. */
export class ManualClock extends Clock {
  constructor(private current: number = Date.UTC(2026, 0, 1)) {
    super();
  }

  now(): number {
    return this.current;
  }

  set(at: Date | number): void {
    this.current = typeof at === 'number' ? at : at.getTime();
  }

  advance(ms: number): void {
    this.current += ms;
  }
}
