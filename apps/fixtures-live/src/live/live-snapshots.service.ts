import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { LiveSnapshot } from './domain';

/** Reads of the latest stored snapshot of each match (the ingest is the only writer). */
@Injectable()
export class LiveSnapshotsService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The stored snapshot text (without `match_id`), or null before the match has gone live. */
  async snapshotText(matchId: number): Promise<string | null> {
    const rows = await this.db.query<Array<{ snapshot: string }>>(
      'SELECT snapshot::text AS snapshot FROM fixtures.live_snapshots WHERE match_id = $1',
      [matchId],
    );
    return rows[0]?.snapshot ?? null;
  }

  async snapshot(matchId: number): Promise<LiveSnapshot | null> {
    const text = await this.snapshotText(matchId);
    return text === null ? null : (JSON.parse(text) as LiveSnapshot);
  }
}
