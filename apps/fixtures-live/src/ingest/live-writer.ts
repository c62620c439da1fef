import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { backoffDelay, DEFAULT_BACKOFF } from '@app/clock';
import type { CatalogStatus } from '../live/domain';
import { CatalogChangeNotifier } from './catalog-change-notifier';
import { describeFault } from './livescores-client';

/** Everything one applied state changes in storage; JSON already serialised. */
export interface LiveWrite {
  readonly snapshotJson: string;
  readonly stateJson: string;
  readonly seq: number;
  readonly liveStatus?: CatalogStatus;
  readonly halfTimeJson?: string;
  readonly fullTimeJson?: string;
  /** The state's position in the change log, once it has one (absent while NATS could not take it). */
  readonly changeSeq?: number;
  readonly prevChangeSeq?: number | null;
}

interface MatchSlot {
  pending?: LiveWrite;
  writing: boolean;
  attempt: number;
  timer?: NodeJS.Timeout;
}

/**
 * Stores applied states, one write in flight per match. Writes that pile up
 * behind it are merged: the latest snapshot and status win, a frozen result
 * is kept from the first write that carried it. A failed write (PostgreSQL
 * away) is merged back and retried with backoff, so nothing is dropped and
 * memory stays bounded by the number of matches.
 */
@Injectable()
export class LiveWriter implements OnApplicationShutdown {
  private readonly logger = new Logger(LiveWriter.name);
  private readonly slots = new Map<number, MatchSlot>();
  private stopped = false;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly changes: CatalogChangeNotifier,
  ) {}

  write(matchId: number, change: LiveWrite): void {
    let slot = this.slots.get(matchId);
    if (!slot) {
      slot = { writing: false, attempt: 0 };
      this.slots.set(matchId, slot);
    }
    slot.pending = merge(slot.pending, change);
    if (!slot.writing && !slot.timer) void this.flush(matchId, slot);
  }

  /** True while some write waits or runs (tests and shutdown use it). */
  get busy(): boolean {
    for (const slot of this.slots.values()) if (slot.pending || slot.writing) return true;
    return false;
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    for (const slot of this.slots.values()) if (slot.timer) clearTimeout(slot.timer);
  }

  private async flush(matchId: number, slot: MatchSlot): Promise<void> {
    const change = slot.pending;
    if (!change || this.stopped) return;
    slot.pending = undefined;
    slot.writing = true;
    try {
      await this.store(matchId, change);
      slot.attempt = 0;
      if (change.liveStatus) this.changes.changed();
    } catch (error) {
      slot.pending = merge(change, slot.pending);
      const delay = backoffDelay(slot.attempt++, DEFAULT_BACKOFF);
      this.logger.warn(`Storing match ${matchId} failed (${describeFault(error)}); retrying in ${delay} ms`);
      slot.timer = setTimeout(() => {
        slot.timer = undefined;
        void this.flush(matchId, slot);
      }, delay);
      slot.timer.unref();
      return;
    } finally {
      slot.writing = false;
    }
    if (slot.pending) void this.flush(matchId, slot);
    else this.slots.delete(matchId);
  }

  private async store(matchId: number, change: LiveWrite): Promise<void> {
    // One statement, so snapshot, status and results land together or not at all.
    await this.db.query(
      `WITH snapshot AS (
         INSERT INTO fixtures.live_snapshots
           (match_id, snapshot, upstream_state, seq, change_seq, prev_change_seq, updated_at)
         VALUES ($1, $2::json, $3::json, $4, $8, $9, now())
         ON CONFLICT (match_id) DO UPDATE SET snapshot = EXCLUDED.snapshot,
           upstream_state = EXCLUDED.upstream_state, seq = EXCLUDED.seq,
           change_seq = COALESCE(EXCLUDED.change_seq, live_snapshots.change_seq),
           prev_change_seq = CASE WHEN EXCLUDED.change_seq IS NULL THEN live_snapshots.prev_change_seq
             ELSE EXCLUDED.prev_change_seq END,
           updated_at = now()
       ), status AS (
         UPDATE fixtures.matches SET live_status = $5, status = $5, updated_at = now()
         WHERE id = $1 AND $5::text IS NOT NULL
       ), result AS (
         INSERT INTO fixtures.results (match_id, half_time, full_time)
         SELECT $1, $6::json, $7::json WHERE $6::text IS NOT NULL OR $7::text IS NOT NULL
         ON CONFLICT (match_id) DO UPDATE SET
           half_time = COALESCE(results.half_time, EXCLUDED.half_time),
           full_time = COALESCE(results.full_time, EXCLUDED.full_time),
           updated_at = now()
       )
       SELECT 1`,
      [
        matchId,
        change.snapshotJson,
        change.stateJson,
        change.seq,
        change.liveStatus ?? null,
        change.halfTimeJson ?? null,
        change.fullTimeJson ?? null,
        change.changeSeq ?? null,
        change.prevChangeSeq ?? null,
      ],
    );
  }
}

/** `later` on top of `earlier`: newest snapshot and status, first frozen results. */
export function merge(earlier: LiveWrite | undefined, later: LiveWrite | undefined): LiveWrite | undefined {
  if (!earlier) return later;
  if (!later) return earlier;
  return {
    snapshotJson: later.snapshotJson,
    stateJson: later.stateJson,
    seq: later.seq,
    liveStatus: later.liveStatus ?? earlier.liveStatus,
    halfTimeJson: earlier.halfTimeJson ?? later.halfTimeJson,
    fullTimeJson: earlier.fullTimeJson ?? later.fullTimeJson,
    // A state not yet logged keeps the newest position stored before it.
    ...(later.changeSeq !== undefined
      ? { changeSeq: later.changeSeq, prevChangeSeq: later.prevChangeSeq }
      : { changeSeq: earlier.changeSeq, prevChangeSeq: earlier.prevChangeSeq }),
  };
}
