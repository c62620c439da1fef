import fc from 'fast-check';
import { SharedRateLimiter, type UsageCounts } from './shared-rate-limiter';

describe('SharedRateLimiter', () => {
  const limit = { rps: 20, burst: 20 };

  it('reports what it admitted once, with the limit it applied', () => {
    const limiter = new SharedRateLimiter();
    limiter.admit('a', limit, 0);
    limiter.admit('a', limit, 0);
    limiter.admit('b', { rps: 1, burst: 1 }, 0);
    limiter.admit('b', { rps: 1, burst: 1 }, 0); // refused: not reported
    expect(limiter.takeUsage()).toEqual({
      a: { n: 2, rps: 20, burst: 20 },
      b: { n: 1, rps: 1, burst: 1 },
    });
    expect(limiter.takeUsage()).toBeUndefined();
  });

  it('spends the same bucket for what other replicas report, even for a key it has not served', () => {
    const limiter = new SharedRateLimiter();
    limiter.applyOthersUsage({ a: { n: 20, rps: 20, burst: 20 } }, 0);
    expect(limiter.admit('a', limit, 0).allowed).toBe(false);
    expect(limiter.admit('a', limit, 50).allowed).toBe(true);
  });

  it('skips malformed reports', () => {
    const limiter = new SharedRateLimiter();
    const reports = [
      { a: { n: 'x', rps: 1, burst: 1 } },
      { a: { n: 5, rps: 0, burst: 1 } },
      { a: null },
      { a: 7 },
    ] as unknown as UsageCounts[];
    for (const report of reports) limiter.applyOthersUsage(report, 0);
    expect(limiter.size).toBe(0);
  });

  it('forgets buckets that are full again and nothing is waiting to be reported', () => {
    const limiter = new SharedRateLimiter();
    limiter.admit('a', limit, 0);
    limiter.prune(0);
    expect(limiter.size).toBe(1); // its use is not reported yet
    limiter.takeUsage();
    limiter.prune(10);
    expect(limiter.size).toBe(1); // not full yet
    limiter.prune(1_000);
    expect(limiter.size).toBe(0);
  });

  /**
   * Replicas that report every 100 ms and hear each other `lagMs` later,
   * each taking an arbitrary share of a client hammering as fast as it can.
   */
  function simulate(replicas: number, lagMs: number, seconds: number, shares: number[]): number {
    const limiters = Array.from({ length: replicas }, () => new SharedRateLimiter());
    let inFlight: Array<{ at: number; from: number; counts: UsageCounts }> = [];
    let admitted = 0;
    for (let now = 0; now <= seconds * 1000; now += 1) {
      const arrived = inFlight.filter((item) => item.at <= now);
      inFlight = inFlight.filter((item) => item.at > now);
      for (const report of arrived) {
        limiters.forEach((limiter, index) => {
          if (index !== report.from) limiter.applyOthersUsage(report.counts, now);
        });
      }
      // Two requests per millisecond in all, spread by the generated shares.
      for (let request = 0; request < 2; request++) {
        const target = shares[(now * 2 + request) % shares.length] % replicas;
        if (limiters[target].admit('key', limit, now).allowed) admitted += 1;
      }
      if (now % 100 === 0) {
        limiters.forEach((limiter, from) => {
          const counts = limiter.takeUsage();
          if (counts) inFlight.push({ at: now + 1 + lagMs, from, counts });
        });
      }
    }
    return admitted;
  }

  it('keeps three replicas together within 20% of the limit over three seconds (generated spreads)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat({ max: 2 }), { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 0, max: 20 }),
        (shares, lagMs) => {
          const allowed = limit.burst + 3 * limit.rps;
          const admitted = simulate(3, lagMs, 3, shares);
          expect(admitted).toBeLessThanOrEqual(allowed * 1.2);
          expect(admitted).toBeGreaterThanOrEqual(allowed * 0.8);
        },
      ),
      { numRuns: 30 },
    );
  });

  it('falls back to each replica enforcing the limit alone when no report arrives', () => {
    const limiters = [new SharedRateLimiter(), new SharedRateLimiter()];
    let admitted = 0;
    for (let now = 0; now <= 1000; now += 1) {
      for (const limiter of limiters) if (limiter.admit('key', limit, now).allowed) admitted += 1;
    }
    expect(admitted).toBe(2 * (limit.burst + limit.rps));
  });
});
