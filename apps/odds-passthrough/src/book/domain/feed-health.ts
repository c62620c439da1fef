/** How the ingest last reported one book's feed, as every replica judges it. */
export interface FeedHealth {
  /** Epoch ms of the last successful upstream poll, null before the first. */
  readonly last_success_at: number | null;
  readonly full_loaded: boolean;
  readonly poll_ms: number;
}

/**
 * Whether the feed counts as healthy at `now`: the ingest has loaded the book
 * in full once and its last successful poll is less than three poll intervals
 * old. Judged with the reader's own clock, so an ingest that stops reporting
 * turns the feed unhealthy without any message.
 */
export function isFeedHealthy(health: FeedHealth | undefined, now: number): boolean {
  if (!health || !health.full_loaded || health.last_success_at === null) return false;
  return now - health.last_success_at < 3 * health.poll_ms;
}
