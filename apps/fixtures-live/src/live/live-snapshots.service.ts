import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { isDatabaseUnavailable } from '@app/database';
import type { ChangePosition } from '@app/messaging';
import { LastKnown } from '../common/last-known';
import type { LiveSnapshot } from './domain';
import { HeardLiveStates, newerSnapshot } from './heard-live-states';

/** Snapshots read from PostgreSQL kept for an outage, for matches this replica has not heard. */
const LAST_KNOWN_SNAPSHOTS = 20_000;

/** A stored snapshot (text without `match_id`) and its place in the change log, when it has one. */
export interface StoredSnapshot {
  readonly text: string;
  readonly position: ChangePosition | null;
}

/**
 * Reads of the latest stored snapshot of each match (the ingest is the only
 * writer). While PostgreSQL is out of reach, the state last heard on NATS
 * answers, else the one last read.
 */
@Injectable()
export class LiveSnapshotsService {
  private readonly lastKnown = new LastKnown<StoredSnapshot | null>(LAST_KNOWN_SNAPSHOTS);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly heard: HeardLiveStates,
  ) {}

  /** The stored snapshot text (without `match_id`), or null before the match has gone live. */
  async snapshotText(matchId: number): Promise<string | null> {
    return (await this.stored(matchId))?.text ?? null;
  }

  /** The stored snapshot with its change-log position, or null before the match has gone live. */
  async stored(matchId: number): Promise<StoredSnapshot | null> {
    const key = String(matchId);
    let stored: StoredSnapshot | null;
    try {
      const rows = await this.db.query<
        Array<{ snapshot: string; change_seq: string | null; prev_change_seq: string | null }>
      >(
        `SELECT snapshot::text AS snapshot, change_seq::text AS change_seq,
           prev_change_seq::text AS prev_change_seq
         FROM fixtures.live_snapshots WHERE match_id = $1`,
        [matchId],
      );
      const row = rows[0];
      stored = row
        ? {
            text: row.snapshot,
            position: row.change_seq
              ? {
                  seq: Number(row.change_seq),
                  prevSeq: row.prev_change_seq ? Number(row.prev_change_seq) : null,
                }
              : null,
          }
        : null;
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      // Heard on NATS is at least as new as anything read before the outage.
      const known = this.heard.snapshot(matchId) ?? this.lastKnown.recall(key);
      if (known === undefined) throw error;
      return known;
    }
    this.lastKnown.remember(key, stored);
    return newerSnapshot(stored, this.heard.snapshot(matchId));
  }

  async snapshot(matchId: number): Promise<LiveSnapshot | null> {
    const text = await this.snapshotText(matchId);
    return text === null ? null : (JSON.parse(text) as LiveSnapshot);
  }
}
