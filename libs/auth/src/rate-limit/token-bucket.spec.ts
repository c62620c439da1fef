import fc from 'fast-check';
import { debtFloor, TokenBucket } from './token-bucket';

describe('TokenBucket', () => {
  const limit = { rps: 10, burst: 20 };

  it('admits a full burst at once, then refuses with the time to the next token', () => {
    const bucket = new TokenBucket(limit, 0);
    for (let i = 0; i < 20; i++) expect(bucket.take(0).allowed).toBe(true);
    const refused = bucket.take(0);
    expect(refused).toEqual({
      allowed: false,
      limit: 20,
      remaining: 0,
      resetSeconds: 1,
      retryAfterSeconds: 1,
    });
  });

  it('counts down Remaining and says Reset 0 while a request is allowed', () => {
    const bucket = new TokenBucket(limit, 0);
    expect(bucket.take(0)).toMatchObject({ allowed: true, remaining: 19, resetSeconds: 0 });
    expect(bucket.take(0)).toMatchObject({ remaining: 18, resetSeconds: 0 });
  });

  it('refills at the sustained rate, never past the burst', () => {
    const bucket = new TokenBucket(limit, 0);
    for (let i = 0; i < 20; i++) bucket.take(0);
    expect(bucket.level(500)).toBeCloseTo(5);
    expect(bucket.level(60_000)).toBe(20);
  });

  it('refills nothing when the clock goes backwards', () => {
    const bucket = new TokenBucket(limit, 1_000);
    bucket.take(1_000);
    expect(bucket.level(0)).toBe(19);
  });

  it('takes other replicas use as debt, down to the floor, and tells how long it takes to pay it back', () => {
    const bucket = new TokenBucket(limit, 0);
    bucket.deduct(40, 0);
    expect(bucket.level(0)).toBe(-20);
    const refused = bucket.take(0);
    expect(refused.allowed).toBe(false);
    expect(refused.resetSeconds).toBe(3); // 21 tokens at 10 per second
    expect(refused.retryAfterSeconds).toBe(3);
    bucket.deduct(1_000_000, 0);
    expect(bucket.level(0)).toBe(debtFloor(limit));
  });

  it('ignores deductions that are not positive numbers', () => {
    const bucket = new TokenBucket(limit, 0);
    bucket.deduct(Number.NaN, 0);
    bucket.deduct(-5, 0);
    expect(bucket.level(0)).toBe(20);
  });

  it('applies a new limit at once, dropping tokens above the new burst', () => {
    const bucket = new TokenBucket(limit, 0);
    bucket.retune({ rps: 1, burst: 2 }, 0);
    expect(bucket.take(0)).toMatchObject({ allowed: true, limit: 2, remaining: 1 });
    bucket.take(0);
    expect(bucket.take(0)).toMatchObject({ allowed: false, resetSeconds: 1 });
  });

  it('admits a request whose token is complete but for float error, as its Reset of 0 says', () => {
    // Found by the generated test below: 0.95 token plus 50 ms of refill at 5/s adds up to a hair
    // under 1, which was refused while the answer announced a Reset of 0 seconds.
    const bucket = new TokenBucket({ rps: 5, burst: 3 }, 0);
    for (const now of [0, 44, 152]) expect(bucket.take(now).allowed).toBe(true);
    expect(bucket.take(190)).toMatchObject({ allowed: false, resetSeconds: 1 });
    expect(bucket.take(200)).toMatchObject({ allowed: true, resetSeconds: 1 });
  });

  it('never admits more than the burst plus the refill of the elapsed time (generated request times)', () => {
    fc.assert(
      fc.property(
        fc.record({ rps: fc.integer({ min: 1, max: 200 }), burst: fc.integer({ min: 1, max: 400 }) }),
        fc.array(fc.integer({ min: 0, max: 200 }), { minLength: 1, maxLength: 500 }),
        (bucketLimit, gaps) => {
          const bucket = new TokenBucket(bucketLimit, 0);
          let now = 0;
          let admitted = 0;
          for (const gap of gaps) {
            now += gap;
            const admission = bucket.take(now);
            if (admission.allowed) admitted += 1;
            expect(admission.remaining).toBeGreaterThanOrEqual(0);
            expect(admission.remaining).toBeLessThanOrEqual(bucketLimit.burst);
            expect(admission.resetSeconds).toBeGreaterThanOrEqual(0);
            expect(admission.retryAfterSeconds).toBeGreaterThanOrEqual(1);
            expect(Number.isInteger(admission.resetSeconds)).toBe(true);
            expect(admission.allowed || admission.resetSeconds >= 1).toBe(true);
          }
          expect(admitted).toBeLessThanOrEqual(
            bucketLimit.burst + Math.floor((now / 1000) * bucketLimit.rps),
          );
        },
      ),
    );
  });

  it('admits a request again once the announced Reset has passed (generated limits)', () => {
    fc.assert(
      fc.property(
        fc.record({ rps: fc.integer({ min: 1, max: 50 }), burst: fc.integer({ min: 1, max: 50 }) }),
        fc.integer({ min: 0, max: 500 }),
        (bucketLimit, debt) => {
          const bucket = new TokenBucket(bucketLimit, 0);
          for (let i = 0; i < bucketLimit.burst; i++) bucket.take(0);
          bucket.deduct(debt, 0);
          const refused = bucket.take(0);
          expect(refused.allowed).toBe(false);
          expect(bucket.take(refused.resetSeconds * 1000).allowed).toBe(true);
        },
      ),
    );
  });
});
