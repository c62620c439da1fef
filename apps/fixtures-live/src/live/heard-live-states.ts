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

/**
 * The newer of a match's stored snapshot and the one heard on NATS. The
 * ingest stores a state after publishing it, so a replica can hear a state
 * before PostgreSQL holds it: read alone, the stored row would hand a new
 * subscriber (or a REST client) the state before, and the subscriber would
 * not get the newer one until the match changes again. Positions decide;
 * a stored state without one was stored while the change log refused it,
 * after everything heard, so it wins.
 */
export function newerSnapshot(
  stored: StoredSnapshot | null,
  heard: StoredSnapshot | undefined,
): StoredSnapshot | null {
  if (!heard?.position) return stored;
  if (stored === null) return heard;
  if (!stored.position) return stored;
  return heard.position.seq > stored.position.seq ? heard : stored;
}
