import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { LastKnown } from '../common/last-known';
import type { LiveSnapshot } from '../live/domain';

export interface MatchResult {
  readonly half_time: LiveSnapshot | null;
  readonly full_time: LiveSnapshot | null;
}

/** Frozen results kept to serve through a PostgreSQL outage. */
const LAST_KNOWN_RESULTS = 20_000;

@Injectable()
export class ResultsService {
  private readonly lastKnown = new LastKnown<MatchResult | null>(LAST_KNOWN_RESULTS);

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The frozen snapshots of the match, or null while neither exists; while PostgreSQL is away, as last read. */
  find(matchId: number): Promise<MatchResult | null> {
    return this.lastKnown.read(String(matchId), async () => {
      const rows = await this.db.query<MatchResult[]>(
        'SELECT half_time, full_time FROM fixtures.results WHERE match_id = $1',
        [matchId],
      );
      const row = rows[0];
      if (!row || (row.half_time === null && row.full_time === null)) return null;
      return { half_time: row.half_time, full_time: row.full_time };
    });
  }
}
