import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Clock, retryUntilDone } from '@app/clock';
import type { CatalogStatus } from '../live/domain';
import { frameData } from '../live/frame-data';
import { ConcurrencyGate } from './concurrency';
import { LiveChangePublisher } from './live-change-publisher';
import { decideLiveUpdate, type MatchMemory, remember } from './live-decision';
import { LiveWriter } from './live-writer';
import { describeFault } from './livescores-client';
import { type KnownMatch, MatchRegistry } from './match-registry';
import type { UpstreamLiveEnvelope, UpstreamLiveState } from '../upstream/livescores.types';

/** States for stat_ids the catalog does not know yet, kept until it does (oldest dropped past this). */
const MAX_UNKNOWN = 10_000;
/** States queued for one match while its memory is read from PostgreSQL. */
const MAX_BACKLOG = 500;
/** First reads of matches' stored state at once: leaves the pool's other connections to writers and REST. */
const READ_CONCURRENCY = 4;

/**
 * Applies live states: drops stale seq, unknown and unchanged states, builds
 * the public snapshot and hands it (already serialised, `match_id` first) to
 * the publisher, which logs, publishes and stores it; hidden matches are only
 * stored.
 *
 * A state whose stat_id the catalog does not know yet (the catalog poll has
 * not seen the match) is kept, latest per stat_id, and applied right after the
 * next catalog poll that brings the match: no extra provider request, and the
 * stream's own resend on reconnect covers anything older.
 */
@Injectable()
export class LiveIngestService {
  private readonly logger = new Logger(LiveIngestService.name);
  private readonly lastSeq = new Map<string, number>();
  private readonly unknown = new Map<string, UpstreamLiveEnvelope>();
  private readonly memories = new Map<number, MatchMemory>();
  private readonly loading = new Map<number, UpstreamLiveEnvelope[]>();
  private readonly reads = new ConcurrencyGate(READ_CONCURRENCY);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly registry: MatchRegistry,
    private readonly writer: LiveWriter,
    private readonly publisher: LiveChangePublisher,
    private readonly clock: Clock,
  ) {}

  /** After a reconnect the states the provider sends first are the truth, whatever their seq. */
  resetSequences(): void {
    this.lastSeq.clear();
  }

  /**
   * Forgets every match's memory and what waits to be published: while
   * another process holds the lease it moves on, and a later term reads the
   * stored state again.
   */
  forget(): void {
    this.lastSeq.clear();
    this.unknown.clear();
    this.memories.clear();
    this.loading.clear();
    this.publisher.forget();
  }

  receive(envelope: UpstreamLiveEnvelope): void {
    const last = this.lastSeq.get(envelope.stat_id);
    if (last !== undefined && envelope.seq <= last) return;
    this.lastSeq.set(envelope.stat_id, envelope.seq);
    this.route(envelope);
  }

  /** Applies the held states whose match the catalog now knows; called after each catalog poll. */
  applyHeld(): void {
    for (const [statId, envelope] of [...this.unknown]) {
      if (!this.registry.find(statId)) continue;
      this.unknown.delete(statId);
      this.route(envelope);
    }
  }

  get heldCount(): number {
    return this.unknown.size;
  }

  private route(envelope: UpstreamLiveEnvelope): void {
    const match = this.registry.find(envelope.stat_id);
    if (!match) {
      this.unknown.delete(envelope.stat_id);
      this.unknown.set(envelope.stat_id, envelope);
      if (this.unknown.size > MAX_UNKNOWN) this.unknown.delete(this.unknown.keys().next().value as string);
      return;
    }
    const backlog = this.loading.get(match.id);
    if (backlog) {
      backlog.push(envelope);
      if (backlog.length > MAX_BACKLOG) backlog.shift();
      return;
    }
    const memory = this.memories.get(match.id);
    if (memory) {
      this.apply(match, memory, envelope);
      return;
    }
    this.loading.set(match.id, [envelope]);
    void this.load(match);
  }

  /** Reads what was stored for the match before this process saw it, retrying while PostgreSQL is away. */
  private async load(match: KnownMatch): Promise<void> {
    const memory = await retryUntilDone(() => this.reads.run(() => this.readMemory(match.id)), {
      // Forgotten while reading: another process leads now.
      stopped: () => !this.loading.has(match.id),
      onFailure: (error, delay) =>
        this.logger.warn(
          `Reading match ${match.id} failed (${describeFault(error)}); retrying in ${delay} ms`,
        ),
    });
    const backlog = this.loading.get(match.id);
    if (!memory || !backlog) return;
    this.loading.delete(match.id);
    this.memories.set(match.id, memory);
    for (const envelope of backlog) {
      this.apply(
        this.registry.find(envelope.stat_id) ?? match,
        this.memories.get(match.id) ?? memory,
        envelope,
      );
    }
  }

  private async readMemory(matchId: number): Promise<MatchMemory> {
    const rows = await this.db.query<
      Array<{
        live_status: CatalogStatus | null;
        upstream_state: UpstreamLiveState | null;
        half_time: boolean;
        full_time: boolean;
        change_seq: string | null;
      }>
    >(
      `SELECT m.live_status, s.upstream_state, s.change_seq::text AS change_seq,
         r.half_time IS NOT NULL AS half_time,
         r.full_time IS NOT NULL AS full_time
       FROM fixtures.matches m
       LEFT JOIN fixtures.live_snapshots s ON s.match_id = m.id
       LEFT JOIN fixtures.results r ON r.match_id = m.id
       WHERE m.id = $1`,
      [matchId],
    );
    const row = rows[0];
    this.publisher.recall(matchId, row?.change_seq ? Number(row.change_seq) : null);
    return {
      lastState: row?.upstream_state ?? null,
      liveStatus: row?.live_status ?? null,
      held: { halfTime: row?.half_time ?? false, fullTime: row?.full_time ?? false },
    };
  }

  private apply(match: KnownMatch, memory: MatchMemory, envelope: UpstreamLiveEnvelope): void {
    let decision;
    try {
      decision = decideLiveUpdate(memory, envelope.state, match, this.clock.date());
    } catch (error) {
      this.logger.warn(`Skipped a state of match ${match.id}: ${describeFault(error)}`);
      return;
    }
    if (decision.kind === 'skip') return;
    this.memories.set(match.id, remember(memory, envelope.state, decision));
    const snapshotJson = JSON.stringify(decision.snapshot);
    const write = {
      snapshotJson,
      stateJson: JSON.stringify(envelope.state),
      seq: envelope.seq,
      liveStatus: decision.statusChanged ? decision.liveStatus : undefined,
      halfTimeJson: decision.freezes.halfTime ? JSON.stringify(decision.freezes.halfTime) : undefined,
      fullTimeJson: decision.freezes.fullTime ? JSON.stringify(decision.freezes.fullTime) : undefined,
    };
    // Hidden matches are invisible everywhere, the stream and its change log included.
    if (match.hidden) this.writer.write(match.id, write);
    else
      this.publisher.publish(
        match.id,
        match.sportId,
        // From Node's shared pool: no backing store of its own per state (see BookChangePublisher).
        Buffer.from(frameData(match.id, snapshotJson), 'utf8'),
        write,
      );
  }
}
