import { Injectable } from '@nestjs/common';
import type { ChangePosition } from '@app/messaging';
import { snapshotJsonOf } from './frame-data';
import type { StoredSnapshot } from './live-snapshots.service';

/** Matches whose latest heard state is kept; live matches at any one time are far fewer. */
const MAX_MATCHES = 20_000;

/**
 * The latest live state of each match as this api replica heard it on NATS
 * (the stream hands every message over), so that `GET /matches/{id}/live`
 * can still answer, and answer the newest state, while PostgreSQL is out of
 * reach. PostgreSQL stays the source of every other answer: this replica may
 * have missed messages while NATS was away, the database has not.
 */
@Injectable()
export class HeardLiveStates {
  private readonly states = new Map<number, { data: string; position: ChangePosition | null }>();

  /** `data` is the stream frame's data: the snapshot with `match_id`. */
  heard(matchId: number, data: string, position: ChangePosition | null): void {
    this.states.delete(matchId);
    this.states.set(matchId, { data, position });
    if (this.states.size > MAX_MATCHES) {
      const oldest = this.states.keys().next();
      if (!oldest.done) this.states.delete(oldest.value);
    }
  }

  /** The snapshot (text without `match_id`) last heard for the match, if any. */
  snapshot(matchId: number): StoredSnapshot | undefined {
    const state = this.states.get(matchId);
    const text = state && snapshotJsonOf(matchId, state.data);
    return text ? { text, position: state.position } : undefined;
  }
}
