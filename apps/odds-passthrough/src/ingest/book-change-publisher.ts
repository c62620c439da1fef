import { randomUUID } from 'node:crypto';
import type { Logger } from '@nestjs/common';
import { backoffDelay, retryUntilDone, WakeablePauses } from '@app/clock';
import {
  appendToChain,
  type ChainTail,
  type ChangeLog,
  type ChangeLogConflict,
  type ChangePosition,
  type LogAppend,
  type LoggedTip,
  describeConflict,
  DynamicSubjects,
  NATS_RECONNECT_BACKOFF,
  type NatsEventClient,
  tailAfter,
} from '@app/messaging';
import type { UpdateFrame } from '../book/book-messages';
import { batchPayloads, type EncodedMatchChange, rememberOwnBatch } from '../book/match-change-batch';
import type { MatchPosition } from '../book/book.repository';
import { describeError } from './describe-error';

/** One match frame of a poll, as the ingest publishes it (no position: that travels in headers). */
export interface MatchFrame {
  readonly sportId: number;
  readonly matchId: number;
  readonly frame: string;
  /** The object `frame` was serialised from, handed to this process's own replica as it is. */
  readonly update?: UpdateFrame;
}

interface PendingFrame extends MatchFrame {
  readonly bytes: Uint8Array;
  /** Stable across retries, so a retried append whose answer was lost is not logged twice. */
  readonly id: string;
}

/**
 * The odds ingest's way out for match frames of one book. Each frame is
 * appended to the book's change log first, which gives it its `seq`; then it
 * goes out to the replicas with its position, several frames to a message
 * (match-change-batch.ts), in the order of their positions. Frames of
 * different matches are appended together (one round trip per poll, not per
 * match), frames of one match one after the other, so each names the one
 * before it (`prev_seq`). While NATS cannot take them, the poll's frames wait
 * and are retried, soon and at once when the connection returns; later polls
 * queue behind (the book's BookOutbox), so order holds.
 *
 * Only the holder of the book's ingest lease appends (`mayPublish`, checked
 * before every round). A match's `prev_seq` is what this term appended last,
 * else the newest change of the match in the log (a process that died
 * between appending and storing the position still appended it), else its
 * stored position (a log that lost its store). Each append expects the log's
 * newest change of the match to be that one (none when the log holds none),
 * so a process that appends after its lease was lost, whatever its pauses,
 * is refused instead of forking the chain; a refused holder reads the log
 * again and appends after what it finds.
 */
export class BookChangePublisher {
  /** Each match's newest `seq` appended in this term (since `start`). */
  private readonly lastSeq = new Map<number, number>();
  /**
   * Each match's last position known besides `lastSeq`: stored, as the seed
   * read it, or named by an append that was refused; named when the log holds
   * nothing of the match.
   */
  private readonly recalled = new Map<number, number>();
  /**
   * The log's newest message when this term appended it: the last of a
   * round that went out whole. Rounds after it go as one chain
   * (`ChangeLog.appendChain`); undefined after a failure, so a chain holds
   * only frames never sent before.
   */
  private tip?: LoggedTip;
  private readonly run = randomUUID();
  private counter = 0;
  private ready?: Promise<void>;
  private ensuring?: Promise<void>;
  /** Retry waits, cut short when NATS reconnects or the process stops. */
  private readonly pauses = new WakeablePauses();
  private failing = false;
  private stopped = false;

  constructor(
    private readonly book: string,
    private readonly log: ChangeLog,
    private readonly events: NatsEventClient,
    private readonly logger: Logger,
    /** The newest position stored for the book, so a log that lost its store is raised above it. */
    private readonly storedTop: () => Promise<number>,
    /** False once this process may no longer hold the book's ingest lease. */
    private readonly mayPublish: () => boolean,
  ) {}

  /**
   * Also after a stop, as a new term: another process may have appended
   * meanwhile, so every match's position is read again.
   */
  start(): void {
    this.stopped = false;
    this.lastSeq.clear();
    this.recalled.clear();
    this.tip = undefined;
    this.ready = this.prepare();
  }

  stop(): void {
    this.stopped = true;
    this.pauses.wakeAll();
  }

  /** NATS is back: retry at once. */
  wake(): void {
    this.pauses.wakeAll();
  }

  /** The position of a match's stored state, read when the ingest starts. */
  recall(matchId: number, seq: number): void {
    this.recalled.set(matchId, seq);
  }

  /** Appends and publishes one poll's frames; resolves with their positions once all went out (or on stop). */
  async publish(frames: readonly MatchFrame[]): Promise<MatchPosition[]> {
    // A frame is under a few KB: Buffer.from takes it out of Node's shared pool, where
    // TextEncoder gives each its own backing store for the GC to track (2.5x the CPU).
    let pending: PendingFrame[] = frames.map(({ sportId, matchId, frame, update }) => ({
      sportId,
      matchId,
      frame,
      update,
      bytes: Buffer.from(frame, 'utf8'),
      id: `${this.run}:${++this.counter}`,
    }));
    const positions: MatchPosition[] = [];
    for (let attempt = 0; pending.length > 0 && !this.stopped && this.mayPublish();) {
      await this.ready?.catch(() => undefined);
      pending = await this.appendRounds(pending, positions);
      if (pending.length === 0) break;
      // The stream may be gone (a NATS that lost its store): check it before the next attempt.
      const ready = this.ensureLog();
      ready.catch(() => undefined);
      this.ready = ready;
      await this.pauses.pause(backoffDelay(attempt++, NATS_RECONNECT_BACKOFF));
    }
    return positions;
  }

  /**
   * Appends in rounds of at most one frame per match and publishes each frame
   * the log took; returns the frames still to append (empty when all went).
   */
  private async appendRounds(pending: PendingFrame[], positions: MatchPosition[]): Promise<PendingFrame[]> {
    let queue = pending;
    while (queue.length > 0) {
      const round: PendingFrame[] = [];
      const later: PendingFrame[] = [];
      const inRound = new Set<number>();
      for (const frame of queue) {
        if (inRound.has(frame.matchId)) later.push(frame);
        else {
          inRound.add(frame.matchId);
          round.push(frame);
        }
      }
      if (!this.mayPublish()) return [];
      const results = await this.appendRound(round);
      const failed: PendingFrame[] = [];
      const appended: EncodedMatchChange[] = [];
      this.tip = undefined;
      results.forEach((result, index) => {
        const frame = round[index];
        if (result.status === 'rejected') {
          failed.push(frame);
          this.reportFailure(result.reason);
          return;
        }
        const position = result.value;
        if (position.seq > (this.tip?.seq ?? 0)) this.tip = { id: frame.id, seq: position.seq };
        this.lastSeq.set(frame.matchId, position.seq);
        appended.push({ position, text: frame.frame, frame: frame.update, bytes: frame.bytes });
        positions.push({ matchId: frame.matchId, ...position });
      });
      this.emitChanges(appended);
      if (failed.length > 0) {
        this.tip = undefined;
        return [...failed, ...later];
      }
      if (this.failing) {
        this.failing = false;
        this.logger.log('The change log takes frames again');
      }
      queue = later;
    }
    return [];
  }

  /**
   * Appends one frame per match. The frames after a position this term
   * appended (every frame of a running ingest but a match's first) are
   * written to NATS in one go, as one chain after the previous round when
   * every frame is such a frame; the others read the log's newest change of
   * their match first.
   */
  private async appendRound(round: readonly PendingFrame[]): Promise<PromiseSettledResult<ChangePosition>[]> {
    const subjects = round.map((frame) => DynamicSubjects.oddsLog(this.book, frame.sportId, frame.matchId));
    const tails = round.map((frame) => this.knownTail(frame.matchId));
    const known: (LogAppend & { id: string })[] = [];
    round.forEach((frame, index) => {
      const tail = tails[index];
      if (tail) known.push({ subject: subjects[index], data: frame.bytes, tail, id: frame.id });
    });
    const tip = known.length === round.length ? this.tip : undefined;
    let sent: Promise<number>[] = [];
    if (tip !== undefined) {
      const outcome = await this.log.appendChain(known, tip);
      if ('seqs' in outcome) {
        // The whole round was taken: its positions, with no promise per frame.
        return known.map(({ tail }, index) => ({
          status: 'fulfilled',
          value: { seq: outcome.seqs[index], prevSeq: tail.prevSeq },
        }));
      }
      sent = outcome.oneByOne;
    } else if (known.length > 0) {
      sent = this.log.appendAll(known);
    }
    let next = 0;
    return Promise.allSettled(
      round.map((frame, index) => {
        const tail = tails[index];
        if (!tail) return this.appendFirst(frame, subjects[index]);
        const attempt = sent[next++];
        return attempt.then(
          (seq) => ({ seq, prevSeq: tail.prevSeq }),
          // A conflict (or any failure) goes the long way, which reads the log again and retries.
          () => this.appendAfter(frame, subjects[index], tail, attempt),
        );
      }),
    );
  }

  /** A match's first append in this term, after the newest change the log holds of it. */
  private async appendFirst(frame: PendingFrame, subject: string): Promise<ChangePosition> {
    const tail = await this.readTail(frame.matchId, subject);
    if (!this.mayPublish()) throw new Error('the ingest lease was lost');
    return this.appendAfter(frame, subject, tail);
  }

  private async appendAfter(
    frame: PendingFrame,
    subject: string,
    tail: ChainTail,
    sent?: Promise<number>,
  ): Promise<ChangePosition> {
    const position = await appendToChain(
      this.log,
      subject,
      frame.bytes,
      tail,
      {
        id: frame.id,
        mayAppend: this.mayPublish,
        onConflict: (conflict, retry) => this.onConflict(frame.matchId, conflict, retry),
      },
      sent,
    );
    if (!position) throw new Error('the ingest lease was lost');
    return position;
  }

  /** What the log took goes out to the replicas, several changes to a message. */
  private emitChanges(changes: readonly EncodedMatchChange[]): void {
    const subject = DynamicSubjects.oddsChanges(this.book);
    for (const batch of batchPayloads(changes)) {
      rememberOwnBatch(batch.bytes, batch.changes);
      this.events.emitFrame(subject, batch.bytes);
    }
  }

  /** Where a match's next append joins its chain, when this term appended to it. */
  private knownTail(matchId: number): ChainTail | undefined {
    const known = this.lastSeq.get(matchId);
    return known === undefined ? undefined : { expectedLastSeq: known, prevSeq: known };
  }

  /** Where the first append of a match in this term joins its chain, from the log. */
  private async readTail(matchId: number, subject: string): Promise<ChainTail> {
    return tailAfter(await this.log.lastSeqOf(subject), this.recalled.get(matchId) ?? null);
  }

  /** What this term appended last is no longer the log's newest change of the match. */
  private onConflict(matchId: number, conflict: ChangeLogConflict, retry: ChainTail): void {
    this.lastSeq.delete(matchId);
    if (retry.prevSeq !== null) this.recalled.set(matchId, retry.prevSeq);
    this.logger.warn(describeConflict(conflict, retry));
  }

  private reportFailure(error: unknown): void {
    if (this.failing) return;
    this.failing = true;
    this.logger.warn(`The change log refused a frame (${describeError(error)}); frames wait and are retried`);
  }

  private ensureLog(): Promise<void> {
    this.ensuring ??= this.log.ensure().finally(() => (this.ensuring = undefined));
    return this.ensuring;
  }

  /** Creates the log, then makes sure its next `seq` is above every position stored. */
  private async prepare(): Promise<void> {
    await retryUntilDone(() => this.log.ensure(), {
      stopped: () => this.stopped,
      onFailure: (error, delay) =>
        this.logger.warn(
          `Preparing the change log failed (${describeError(error)}); retrying in ${delay} ms`,
        ),
      wait: (ms) => this.pauses.pause(ms),
    });
    try {
      await this.log.raiseFloor(await this.storedTop());
    } catch (error) {
      // Without PostgreSQL the floor stays unchecked; publishing prices matters more than this rare repair.
      this.logger.warn(`Checking the change log against stored positions failed (${describeError(error)})`);
    }
  }
}
