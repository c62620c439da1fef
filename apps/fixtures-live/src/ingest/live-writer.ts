import { type BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
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

/** How long a first write waits for others to share its statement: one statement carries many matches. */
const LINGER_MS = 100;
/** Matches per statement at most, so one statement stays short. */
const MAX_BATCH = 500;

/**
 * Stores applied states behind the stream (write-behind): writes wait up to
 * `LINGER_MS` and go out together, one statement in flight at a time, each
 * match's pending writes merged (the latest snapshot and status win, a
 * frozen result is kept from the first write that carried it). A failed
 * statement (PostgreSQL away) is merged back and retried with backoff, so
 * nothing is dropped and memory stays bounded by the number of matches. What
 * waits when the process stops is written once more before PostgreSQL closes.
 */
@Injectable()
export class LiveWriter implements BeforeApplicationShutdown {
  private readonly logger = new Logger(LiveWriter.name);
  private readonly pending = new Map<number, LiveWrite>();
  /** When the oldest pending write arrived. */
  private pendingSince = 0;
  private flushing?: Promise<void>;
  private timer?: NodeJS.Timeout;
  private attempt = 0;
  /** Set by a failed statement: the wait before the next one. */
  private retryDelay?: number;
  private stopped = false;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly changes: CatalogChangeNotifier,
  ) {}

  write(matchId: number, change: LiveWrite): void {
    if (this.pending.size === 0) this.pendingSince = performance.now();
    this.pending.set(matchId, merge(this.pending.get(matchId), change) ?? change);
    // A frozen result or a new status is rare and matters after a crash: it does not wait, unless
    // PostgreSQL is failing and the retry waits out its backoff.
    const urgent =
      (change.halfTimeJson ?? change.fullTimeJson ?? change.liveStatus) !== undefined && this.attempt === 0;
    if (urgent) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.schedule(urgent ? 0 : LINGER_MS - (performance.now() - this.pendingSince));
  }

  /** True while some write waits or runs (tests and shutdown use it). */
  get busy(): boolean {
    return this.pending.size > 0 || this.flushing !== undefined;
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.flushing;
    if (this.pending.size === 0) return;
    try {
      await this.store(this.take(this.pending.size));
    } catch (error) {
      this.logger.warn(`Storing the last live states failed on shutdown (${describeFault(error)})`);
    }
  }

  private schedule(delayMs: number): void {
    if (this.stopped || this.flushing || this.timer || this.pending.size === 0) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.flushing = this.flush().finally(() => {
          this.flushing = undefined;
          this.schedule(this.retryDelay ?? LINGER_MS - (performance.now() - this.pendingSince));
          this.retryDelay = undefined;
        });
      },
      Math.max(0, delayMs),
    );
    this.timer.unref();
  }

  private async flush(): Promise<void> {
    const batch = this.take(MAX_BATCH);
    try {
      await this.store(batch);
      this.attempt = 0;
      if (batch.some(([, change]) => change.liveStatus)) this.changes.changed();
    } catch (error) {
      for (const [matchId, change] of batch) {
        this.pending.set(matchId, merge(change, this.pending.get(matchId)) ?? change);
      }
      this.retryDelay = backoffDelay(this.attempt++, DEFAULT_BACKOFF);
      this.logger.warn(
        `Storing ${batch.length} live states failed (${describeFault(error)}); retrying in ${this.retryDelay} ms`,
      );
    }
  }

  /** Removes up to `count` pending writes, oldest matches first. */
  private take(count: number): Array<[number, LiveWrite]> {
    const batch: Array<[number, LiveWrite]> = [];
    for (const entry of this.pending) {
      if (batch.length === count) break;
      batch.push(entry);
    }
    for (const [matchId] of batch) this.pending.delete(matchId);
    return batch;
  }

  private async store(batch: ReadonlyArray<readonly [number, LiveWrite]>): Promise<void> {
    // One statement, so snapshots, statuses and results land together or not at all.
    await this.db.query(
      `WITH batch AS (
         SELECT * FROM json_to_recordset($1::json)
           AS b(match_id int, snapshot json, upstream_state json, seq bigint, live_status text,
             half_time json, full_time json, change_seq bigint, prev_change_seq bigint)
       ), snapshot AS (
         INSERT INTO fixtures.live_snapshots
           (match_id, snapshot, upstream_state, seq, change_seq, prev_change_seq, updated_at)
         SELECT match_id, snapshot, upstream_state, seq, change_seq, prev_change_seq, now() FROM batch
         ON CONFLICT (match_id) DO UPDATE SET snapshot = EXCLUDED.snapshot,
           upstream_state = EXCLUDED.upstream_state, seq = EXCLUDED.seq,
           change_seq = COALESCE(EXCLUDED.change_seq, live_snapshots.change_seq),
           prev_change_seq = CASE WHEN EXCLUDED.change_seq IS NULL THEN live_snapshots.prev_change_seq
             ELSE EXCLUDED.prev_change_seq END,
           updated_at = now()
       ), status AS (
         UPDATE fixtures.matches m SET live_status = b.live_status, status = b.live_status, updated_at = now()
         FROM batch b WHERE m.id = b.match_id AND b.live_status IS NOT NULL
       ), result AS (
         INSERT INTO fixtures.results (match_id, half_time, full_time)
         SELECT match_id, half_time, full_time FROM batch
         WHERE half_time IS NOT NULL OR full_time IS NOT NULL
         ON CONFLICT (match_id) DO UPDATE SET
           half_time = COALESCE(results.half_time, EXCLUDED.half_time),
           full_time = COALESCE(results.full_time, EXCLUDED.full_time),
           updated_at = now()
       )
       SELECT 1`,
      [`[${batch.map(([matchId, change]) => batchRow(matchId, change)).join(',')}]`],
    );
  }
}

/**
 * One row of a statement's batch as `json_to_recordset` reads it: the JSON
 * already serialised goes in as it is (a `json[]` parameter had node-postgres
 * escape every quote of it, about 15 µs of CPU per row), and what is absent is
 * left out, which reads as NULL.
 */
export function batchRow(matchId: number, change: LiveWrite): string {
  const fields = [
    `"match_id":${matchId}`,
    `"snapshot":${change.snapshotJson}`,
    `"upstream_state":${change.stateJson}`,
    `"seq":${change.seq}`,
  ];
  if (change.liveStatus !== undefined) fields.push(`"live_status":${JSON.stringify(change.liveStatus)}`);
  if (change.halfTimeJson !== undefined) fields.push(`"half_time":${change.halfTimeJson}`);
  if (change.fullTimeJson !== undefined) fields.push(`"full_time":${change.fullTimeJson}`);
  if (change.changeSeq !== undefined) fields.push(`"change_seq":${change.changeSeq}`);
  if (change.prevChangeSeq !== undefined && change.prevChangeSeq !== null)
    fields.push(`"prev_change_seq":${change.prevChangeSeq}`);
  return `{${fields.join(',')}}`;
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
