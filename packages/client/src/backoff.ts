/** How long to wait before reconnect attempt `attempt` (0 for the first retry). */
export interface BackoffOptions {
  /** The first delay's ceiling. */
  readonly initialMs: number;
  /** No delay is ever longer. */
  readonly maxMs: number;
  /** Growth per attempt; 2 doubles. */
  readonly factor?: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 250, maxMs: 15_000, factor: 2 };

/**
 * Capped exponential backoff with "equal jitter": half of the capped delay is
 * fixed and half is random, so clients that lost the same server spread out
 * but none retries at once in a tight loop. `random` returns [0, 1).
 */
export function backoffDelay(
  attempt: number,
  options: BackoffOptions = DEFAULT_BACKOFF,
  random: () => number = Math.random,
): number {
  const factor = options.factor ?? 2;
  const exponent = Math.max(0, Math.floor(attempt));
  const capped = Math.min(options.maxMs, options.initialMs * factor ** exponent);
  const half = capped / 2;
  return Math.round(half + half * Math.min(Math.max(random(), 0), 1));
}
