export interface BackoffPolicy {
  /** Delay before the first retry. */
  readonly initialMs: number;
  /** Ceiling for any single delay. */
  readonly maxMs: number;
  /** Share of the delay that is randomised (0..1), so replicas don't retry in lockstep. */
  readonly jitter: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { initialMs: 250, maxMs: 5000, jitter: 0.5 };

/**
 * Exponential backoff with "equal jitter": the delay for retry `attempt`
 * (0-based) lies in [(1 - jitter) * d, d] where d = min(maxMs, initialMs * 2^attempt).
 */
export function backoffDelay(
  attempt: number,
  policy: BackoffPolicy = DEFAULT_BACKOFF,
  random: () => number = Math.random,
): number {
  const exponent = Math.min(Math.max(attempt, 0), 30);
  const ceiling = Math.min(policy.maxMs, policy.initialMs * 2 ** exponent);
  const spread = ceiling * policy.jitter;
  return Math.round(ceiling - spread + random() * spread);
}
