import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { isDatabaseUnavailable } from '@app/database';
import { LastKnown } from '../common/last-known';
import type { LiveSnapshot } from './domain';
import { HeardLiveStates } from './heard-live-states';

/** Snapshots read from PostgreSQL kept for an outage, for matches this replica has not heard. */
const LAST_KNOWN_SNAPSHOTS = 20_000;

/**
 * Reads of the latest stored snapshot of each match (the ingest is the only
 * writer). While PostgreSQL is out of reach, the state last heard on NATS
 * answers, else the one last read.
 */
@Injectable()
export class LiveSnapshotsService {
  private readonly lastKnown = new LastKnown<string | null>(LAST_KNOWN_SNAPSHOTS);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly heard: HeardLiveStates,
  ) {}

  /** The stored snapshot text (without `match_id`), or null before the match has gone live. */
  async snapshotText(matchId: number): Promise<string | null> {
    const key = String(matchId);
    let text: string | null;
    try {
      const rows = await this.db.query<Array<{ snapshot: string }>>(
        'SELECT snapshot::text AS snapshot FROM fixtures.live_snapshots WHERE match_id = $1',
        [matchId],
      );
      text = rows[0]?.snapshot ?? null;
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      // Heard on NATS is at least as new as anything read before the outage.
      const known = this.heard.snapshotText(matchId) ?? this.lastKnown.recall(key);
      if (known === undefined) throw error;
      return known;
    }
    this.lastKnown.remember(key, text);
    return text;
  }

  async snapshot(matchId: number): Promise<LiveSnapshot | null> {
    const text = await this.snapshotText(matchId);
    return text === null ? null : (JSON.parse(text) as LiveSnapshot);
  }
}
