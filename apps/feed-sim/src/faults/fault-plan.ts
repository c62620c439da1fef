import type { Random } from '../model/random';

export type HttpFault = 'none' | 'error' | 'slow' | 'malformed';

/**
 * SIM_FAULTS as decisions: each HTTP answer goes wrong with probability
 * `rate` (a 5xx, a slow answer or a malformed body, in equal shares); each
 * stream frame is malformed with a tenth of that rate and each stream is
 * dropped with a fifth of it per second, so a stream still carries data
 * between faults.
 */
export class FaultPlan {
  constructor(
    readonly rate: number,
    private readonly random: Random,
  ) {}

  http(): HttpFault {
    if (this.rate <= 0 || !this.random.chance(this.rate)) return 'none';
    return this.random.pick(['error', 'slow', 'malformed'] as const);
  }

  errorStatus(): number {
    return this.random.pick([500, 502, 503, 504]);
  }

  slowMs(): number {
    return this.random.int(1500, 4000);
  }

  /** A body that is not the documented shape: cut short, or the wrong thing altogether. */
  corrupt(body: string): string {
    return this.random.pick([
      body.slice(0, Math.max(1, Math.floor(body.length / 2))),
      '{"unexpected": true}',
      '<html><body>Bad Gateway</body></html>',
    ]);
  }

  malformedFrame(): boolean {
    return this.rate > 0 && this.random.chance(this.rate / 10);
  }

  /** Per stream and per tick of `tickMs`: drop the connection now? */
  dropStream(tickMs: number): boolean {
    return this.rate > 0 && this.random.chance(((this.rate / 5) * tickMs) / 1000);
  }
}
