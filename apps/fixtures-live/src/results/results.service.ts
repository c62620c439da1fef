import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { LiveSnapshot } from '../live/domain';

export interface MatchResult {
  readonly half_time: LiveSnapshot | null;
  readonly full_time: LiveSnapshot | null;
}

@Injectable()
export class ResultsService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The frozen snapshots of the match, or null while neither exists. */
  async find(matchId: number): Promise<MatchResult | null> {
    const rows = await this.db.query<MatchResult[]>(
      'SELECT half_time, full_time FROM fixtures.results WHERE match_id = $1',
      [matchId],
    );
    const row = rows[0];
    if (!row || (row.half_time === null && row.full_time === null)) return null;
    return { half_time: row.half_time, full_time: row.full_time };
  }
}
