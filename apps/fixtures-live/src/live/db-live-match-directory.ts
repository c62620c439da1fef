import { Injectable } from '@nestjs/common';
import { MatchesService } from '../catalog/matches.service';
import { MAX_ID } from '../common/query/query-values';
import { SharedLoads } from '../common/shared-loads';
import { frameData } from './frame-data';
import { LiveMatchDirectory, type StoredFrame, type VisibleMatch } from './live-match-directory';
import { LiveSnapshotsService } from './live-snapshots.service';

/**
 * The stream's view of matches and their latest snapshot, read from
 * PostgreSQL through the same services as REST, so that it answers what
 * they answer through an outage too.
 */
@Injectable()
export class DbLiveMatchDirectory extends LiveMatchDirectory {
  /** Each subscribe reads its match: the subscribes of a burst share the reads under way. */
  private readonly visible = new SharedLoads<number, VisibleMatch | null>();
  private readonly frames = new SharedLoads<number, StoredFrame | null>();

  constructor(
    private readonly matches: MatchesService,
    private readonly snapshots: LiveSnapshotsService,
  ) {
    super();
  }

  findVisibleMatch(matchId: number): Promise<VisibleMatch | null> {
    if (!Number.isInteger(matchId) || matchId < 1 || matchId > MAX_ID) return Promise.resolve(null);
    return this.visible.run(matchId, async () => {
      const match = await this.matches.findVisible(matchId);
      return match
        ? { id: match.id, sportId: match.sport_id, closeOfPlay: match.status === 'CLOSE_OF_PLAY' }
        : null;
    });
  }

  latestFrame(matchId: number): Promise<StoredFrame | null> {
    if (!Number.isInteger(matchId) || matchId < 1 || matchId > MAX_ID) return Promise.resolve(null);
    return this.frames.run(matchId, async () => {
      const stored = await this.snapshots.stored(matchId);
      return stored === null ? null : { data: frameData(matchId, stored.text), position: stored.position };
    });
  }
}
