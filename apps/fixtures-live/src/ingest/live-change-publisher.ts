import { randomUUID } from 'node:crypto';
import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { backoffDelay, retryUntilDone, WakeablePauses } from '@app/clock';
import { IngestLeadership } from '@app/leadership';
import {
  appendToChain,
  type ChainTail,
  type ChangeLogConflict,
  describeConflict,
  DynamicSubjects,
  NATS_RECONNECT_BACKOFF,
  NatsEventClient,
  NatsLink,
  positionHeaders,
  tailAfter,
} from '@app/messaging';
import { LiveChangeLog } from '../live/live-change-log';
import { FIXTURES_INGEST_LEASE } from './fixtures-ingest-lease';
import { describeFault } from './livescores-client';
import { type LiveWrite, LiveWriter } from './live-writer';

/** A match's newest applied state, waiting for its turn in the change log. */
interface PendingChange {
  readonly sportId: number;
  readonly frameData: Uint8Array;
  readonly write: LiveWrite;
  /** Stable across retries, so an append retried after its answer was lost is not logged twice. */
  readonly id: string;
  /** Stored already without a position, because the log could not take it at once. */
  stored: boolean;
}

interface MatchSlot {
  pending?: PendingChange;
  running: boolean;
  attempt: number;
}

/**
 * The ingest's way out for live states. Each state is appended to the change
 * log first, which gives it its `seq`; then it goes out on the match's live
 * subject with that position in headers, and is stored with it. One append
 * runs per match at a time, so a match's frames keep `seq` order and each
 * names the one before it (`prev_seq`); states that arrive meanwhile collapse
 * to the newest, since each is a whole snapshot. While NATS cannot take it,
 * the newest state is stored at once without a position and retried: soon,
 * and at once when the connection comes back (stream clients expect the next
 * change within a second of NATS answering again).
 *
 * Only the holder of the ingest lease appends: the check runs right before
 * every append, so a deposed process stops before its successor starts. Each
 * append also expects the log's newest change of the match to be the one it
 * names (none when the log holds none), so a process that appends after its
 * lease was lost, whatever its pauses, is refused instead of forking the
 * chain; a refused holder reads the log again and appends after what it finds.
 */
@Injectable()
export class LiveChangePublisher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(LiveChangePublisher.name);
  private readonly slots = new Map<number, MatchSlot>();
  private readonly runId = randomUUID();
  private appended = 0;
  /** Each match's newest `seq` appended by this term. */
  private readonly lastSeq = new Map<number, number>();
  /**
   * Each match's last position known besides `lastSeq`: stored, or named by
   * an append that was refused; named when the log holds nothing of the
   * match (it aged out, or the log's store was lost).
   */
  private readonly recalled = new Map<number, number>();
  private ready?: Promise<void>;
  private ensuring?: Promise<void>;
  /** Retry waits, cut short when NATS reconnects or the process stops. */
  private readonly pauses = new WakeablePauses();
  private failing = false;
  /** Grows with every `forget`: an append that completes after it must not bring its position back. */
  private generation = 0;
  private detachReconnect?: () => void;
  private stopped = false;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly log: LiveChangeLog,
    private readonly events: NatsEventClient,
    private readonly writer: LiveWriter,
    private readonly nats: NatsLink,
    private readonly leadership: IngestLeadership,
  ) {}

  onApplicationBootstrap(): void {
    this.ready = this.prepareLog();
    this.detachReconnect = this.nats.onReconnect(() => {
      // The server may need a moment before JetStream answers: retry from the shortest delay.
      for (const slot of this.slots.values()) slot.attempt = 0;
      this.pauses.wakeAll();
    });
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    this.detachReconnect?.();
    this.pauses.wakeAll();
  }

  /** The position the match's stored state had when this process first read it. */
  recall(matchId: number, changeSeq: number | null): void {
    if (changeSeq !== null && !this.recalled.has(matchId)) this.recalled.set(matchId, changeSeq);
  }

  /**
   * Drops what waits and every known position: another process publishes
   * now, and positions are read again from the log when this one takes over.
   */
  forget(): void {
    this.generation++;
    for (const slot of this.slots.values()) slot.pending = undefined;
    this.lastSeq.clear();
    this.recalled.clear();
  }

  /** Publishes and stores a visible match's state; `frameData` is the frame's `data` JSON. */
  publish(matchId: number, sportId: number, frameData: Uint8Array, write: LiveWrite): void {
    let slot = this.slots.get(matchId);
    if (!slot) {
      slot = { running: false, attempt: 0 };
      this.slots.set(matchId, slot);
    }
    slot.pending = { sportId, frameData, write, id: `${this.runId}:${++this.appended}`, stored: false };
    if (!slot.running) void this.run(matchId, slot);
  }

  /** True while some state waits for the log (tests and shutdown use it). */
  get busy(): boolean {
    for (const slot of this.slots.values()) if (slot.pending || slot.running) return true;
    return false;
  }

  private async run(matchId: number, slot: MatchSlot): Promise<void> {
    slot.running = true;
    try {
      while (slot.pending && !this.stopped) {
        const change = slot.pending;
        slot.pending = undefined;
        try {
          await this.ready;
          await this.append(matchId, change);
          slot.attempt = 0;
          if (this.failing) {
            this.failing = false;
            this.logger.log('The change log takes states again');
          }
        } catch (error) {
          if (!change.stored) {
            change.stored = true;
            this.writer.write(matchId, change.write);
          }
          slot.pending ??= change;
          if (!this.failing) {
            this.failing = true;
            this.logger.warn(
              `The change log refused a state (${describeFault(error)}); states are stored and retried`,
            );
          }
          // A NATS that lost its store has no stream any more: check it before the next attempt.
          const ready = this.ensureLog();
          ready.catch(() => undefined);
          this.ready = ready;
          await this.pauses.pause(backoffDelay(slot.attempt++, NATS_RECONNECT_BACKOFF));
        }
      }
    } finally {
      slot.running = false;
    }
    if (!slot.pending) this.slots.delete(matchId);
  }

  private async append(matchId: number, change: PendingChange): Promise<void> {
    const generation = this.generation;
    const subject = DynamicSubjects.fixturesLog(change.sportId, matchId);
    const tail = await this.tailOf(matchId, subject);
    const mayAppend = () => this.leadership.holds(FIXTURES_INGEST_LEASE) && generation === this.generation;
    if (!mayAppend()) return;
    const position = await appendToChain(this.log, subject, change.frameData, tail, {
      id: change.id,
      mayAppend,
      onConflict: (conflict, retry) => this.onConflict(matchId, generation, conflict, retry),
    });
    if (!position) return;
    if (generation === this.generation) this.lastSeq.set(matchId, position.seq);
    this.events.emitFrame(
      DynamicSubjects.fixturesLive(change.sportId, matchId),
      change.frameData,
      positionHeaders(position),
    );
    this.writer.write(matchId, {
      ...change.write,
      changeSeq: position.seq,
      prevChangeSeq: position.prevSeq,
    });
  }

  /**
   * After what this term appended last; else after the match's newest change
   * in the log, which a process that died before storing its last position
   * still appended; else naming the stored position.
   */
  private async tailOf(matchId: number, subject: string): Promise<ChainTail> {
    const known = this.lastSeq.get(matchId);
    if (known !== undefined) return { expectedLastSeq: known, prevSeq: known };
    return tailAfter(await this.log.lastSeqOf(subject), this.recalled.get(matchId) ?? null);
  }

  /** What this term appended last is no longer the log's newest change of the match. */
  private onConflict(
    matchId: number,
    generation: number,
    conflict: ChangeLogConflict,
    retry: ChainTail,
  ): void {
    if (generation === this.generation) {
      this.lastSeq.delete(matchId);
      if (retry.prevSeq !== null) this.recalled.set(matchId, retry.prevSeq);
    }
    this.logger.warn(describeConflict(conflict, retry));
  }

  /** One check of the stream for every match that failed at once. */
  private ensureLog(): Promise<void> {
    this.ensuring ??= this.log.ensure().finally(() => (this.ensuring = undefined));
    return this.ensuring;
  }

  /**
   * Creates the log, then makes sure its next `seq` is above every position
   * stored: a NATS whose store was lost would otherwise start again at 1.
   */
  private async prepareLog(): Promise<void> {
    await retryUntilDone(() => this.log.ensure(), {
      stopped: () => this.stopped,
      onFailure: (error, delay) =>
        this.logger.warn(
          `Preparing the change log failed (${describeFault(error)}); retrying in ${delay} ms`,
        ),
    });
    try {
      const rows = await this.db.query<Array<{ top: string | null }>>(
        'SELECT max(change_seq)::text AS top FROM fixtures.live_snapshots',
      );
      await this.log.raiseFloor(Number(rows[0]?.top ?? 0));
    } catch (error) {
      // Without PostgreSQL the floor stays unchecked; publishing live matters more than this rare repair.
      this.logger.warn(`Checking the change log against stored positions failed (${describeFault(error)})`);
    }
  }
}
