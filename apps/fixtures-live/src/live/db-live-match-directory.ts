import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { MAX_ID } from '../common/query/query-params';
import { frameData } from './frame-data';
import { LiveMatchDirectory, type VisibleMatch } from './live-match-directory';
import { LiveSnapshotsService } from './live-snapshots.service';

/** The stream's view of matches and their latest snapshot, read from PostgreSQL. */
@Injectable()
export class DbLiveMatchDirectory extends LiveMatchDirectory {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly snapshots: LiveSnapshotsService,
  ) {
    super();
  }

  async findVisibleMatch(matchId: number): Promise<VisibleMatch | null> {
    if (!Number.isInteger(matchId) || matchId < 1 || matchId > MAX_ID) return null;
    const rows = await this.db.query<Array<{ id: number; sport_id: number }>>(
      'SELECT id, sport_id FROM fixtures.matches WHERE id = $1 AND NOT hidden',
      [matchId],
    );
    const row = rows[0];
    return row ? { id: row.id, sportId: row.sport_id } : null;
  }

  async latestFrameData(matchId: number): Promise<string | null> {
    if (!Number.isInteger(matchId) || matchId < 1 || matchId > MAX_ID) return null;
    const text = await this.snapshots.snapshotText(matchId);
    return text === null ? null : frameData(matchId, text);
  }
}
