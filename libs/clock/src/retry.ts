import { backoffDelay, type BackoffPolicy, DEFAULT_BACKOFF } from './backoff';

export interface RetryOptions {
  /** Checked before each attempt: once true, no further attempt is made. */
  readonly stopped?: () => boolean;
  /** Told each failure and the wait before the next attempt (to log it). */
  readonly onFailure: (error: unknown, delayMs: number) => void;
  readonly backoff?: BackoffPolicy;
  /** The wait between attempts; pass a stoppable one so shutdown need not wait it out. */
  readonly wait?: (ms: number) => Promise<void>;
}

/**
 * Runs `task` until it succeeds, with exponential backoff between failures:
 * the one way these services wait out a dependency that is away (PostgreSQL,
 * NATS) at start or while reading state. Resolves with the task's result,
 * or undefined when stopped first.
 */
export async function retryUntilDone<T>(
  task: () => Promise<T>,
  { stopped = () => false, onFailure, backoff = DEFAULT_BACKOFF, wait = unrefSleep }: RetryOptions,
): Promise<T | undefined> {
  for (let attempt = 0; !stopped(); attempt++) {
    try {
      return await task();
    } catch (error) {
      if (stopped()) return undefined;
      const delay = backoffDelay(attempt, backoff);
      onFailure(error, delay);
      await wait(delay);
    }
  }
  return undefined;
}

function unrefSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
