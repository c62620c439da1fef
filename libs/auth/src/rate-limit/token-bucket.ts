/** A key's REST request rate: a sustained rate and the burst it may spend at once. */
export interface RateLimit {
  /** Requests per second refilled into the bucket. */
  readonly rps: number;
  /** Size of the bucket, sent as `RateLimit-Limit`. */
  readonly burst: number;
}

/** The outcome of one request against a bucket, and what its headers say. */
export interface Admission {
  readonly allowed: boolean;
  /** The burst (`RateLimit-Limit`). */
  readonly limit: number;
  /** Whole requests still allowed right now (`RateLimit-Remaining`). */
  readonly remaining: number;
  /** Whole seconds until one more request is allowed, 0 when one is (`RateLimit-Reset`). */
  readonly resetSeconds: number;
  /** For a refusal: whole seconds to wait, at least 1 (`Retry-After`). */
  readonly retryAfterSeconds: number;
}

/** Refills add fractions of a token: a sum this close to a whole number is that number. */
const FLOAT_TOLERANCE = 1e-9;

/**
 * How far below empty other replicas' reported use may push a bucket: one
 * burst plus ten seconds of refill. Debt is what keeps the cluster's total
 * near the limit (requests admitted on two replicas before they heard of
 * each other are paid back), and the floor keeps a flood of reports, even
 * wrong ones, from locking a key out for long.
 */
export function debtFloor(limit: RateLimit): number {
  return -(limit.burst + 10 * limit.rps);
}

/**
 * A token bucket with fractional tokens, refilled lazily from the time it is
 * given (epoch ms; a clock that goes backwards refills nothing). Each
 * admitted request takes one token; `deduct` takes tokens spent elsewhere
 * (other replicas) and may leave the bucket in debt.
 */
export class TokenBucket {
  private tokens: number;
  private updatedAt: number;

  constructor(
    private limitValue: RateLimit,
    now: number,
  ) {
    this.tokens = limitValue.burst;
    this.updatedAt = now;
  }

  get limit(): RateLimit {
    return this.limitValue;
  }

  /** Tokens at `now`, after refilling. */
  level(now: number): number {
    this.refill(now);
    return this.tokens;
  }

  /** A changed limit applies from now on; tokens above the new burst are dropped. */
  retune(limit: RateLimit, now: number): void {
    if (limit.rps === this.limitValue.rps && limit.burst === this.limitValue.burst) return;
    this.refill(now);
    this.limitValue = limit;
    this.tokens = Math.max(Math.min(this.tokens, limit.burst), debtFloor(limit));
  }

  /** Takes one token if there is one. */
  take(now: number): Admission {
    this.refill(now);
    // The same tolerance as the announced wait: a token short by float error alone is a token.
    const allowed = this.tokens >= 1 - FLOAT_TOLERANCE;
    if (allowed) this.tokens -= 1;
    return this.describe(allowed);
  }

  /** Tokens other replicas spent on the same key. */
  deduct(count: number, now: number): void {
    if (!(count > 0)) return;
    this.refill(now);
    this.tokens = Math.max(this.tokens - count, debtFloor(this.limitValue));
  }

  /** Full again: the bucket says nothing a new one would not. */
  isFull(now: number): boolean {
    return this.level(now) >= this.limitValue.burst;
  }

  private refill(now: number): void {
    const elapsed = now - this.updatedAt;
    if (elapsed <= 0) return;
    this.updatedAt = now;
    if (this.tokens >= this.limitValue.burst) return;
    this.tokens = Math.min(this.limitValue.burst, this.tokens + (elapsed / 1000) * this.limitValue.rps);
  }

  private describe(allowed: boolean): Admission {
    const { rps, burst } = this.limitValue;
    const missing = 1 - this.tokens;
    // A hair of float error must not turn "allowed now" into a one-second wait.
    const waitSeconds = missing <= FLOAT_TOLERANCE ? 0 : Math.ceil(missing / rps - FLOAT_TOLERANCE);
    return {
      allowed,
      limit: burst,
      remaining: Math.max(0, Math.floor(this.tokens + FLOAT_TOLERANCE)),
      resetSeconds: waitSeconds,
      retryAfterSeconds: Math.max(1, waitSeconds),
    };
  }
}
