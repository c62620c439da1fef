import type { ChangePosition } from '@app/messaging';

/** A match as the stream needs it: enough to check visibility and route frames. */
export interface VisibleMatch {
  readonly id: number;
  readonly sportId: number;
  /** A Test at stumps (CLOSE_OF_PLAY): its state is frozen and no frame goes out until play resumes. */
  readonly closeOfPlay?: boolean;
}

/**
 * What the api side of fixtures-live knows about matches and their live state,
 * read from PostgreSQL (the ingest role is its only writer). The stream uses it
 * to accept subscriptions and to send the first `snapshot` frame.
 */
export abstract class LiveMatchDirectory {
  /** The match when it exists and is not hidden (suspended, postponed, cancelled); else null. */
  abstract findVisibleMatch(matchId: number): Promise<VisibleMatch | null>;

  /**
   * The stored public snapshot of the match as the exact JSON text of a stream
   * frame's `data` (so `match_id` included) with its change-log position, or
   * null before the match has gone live.
   */
  abstract latestFrame(matchId: number): Promise<StoredFrame | null>;
}

export interface StoredFrame {
  readonly data: string;
  /** Null for a state stored while the change log could not take it, and never logged since. */
  readonly position: ChangePosition | null;
}
