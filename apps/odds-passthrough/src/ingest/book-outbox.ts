import type { Logger } from '@nestjs/common';
import { backoffDelay } from '@app/clock';
import { type ChangeLog, DynamicSubjects, type NatsEventClient } from '@app/messaging';
import type { CatalogMessage, FeedHealthMessage } from '../book/book-messages';
import type { BookRepository } from '../book/book.repository';
import { BookChangePublisher } from './book-change-publisher';
import type { BookPublication } from './book-publication';
import { describeError } from './describe-error';

/** The stored copy of the feed health is rewritten at most this often, however fast the book is polled. */
const HEALTH_STORED_EVERY_MS = 1000;

/** This process's hold on the book's ingest lease, as the book's writers see it. */
export interface BookIngestLease {
  /** False once this process may no longer hold the lease: asked before anything goes out. */
  holds(): boolean;
  /** Runs `write` as the lease's next PostgreSQL probe, while this process still holds the lease. */
  carryOnProbe(write: () => Promise<unknown>): void;
}

/**
 * Everything one book's ingest sends out, in the order its IngestBook
 * changed: each publication is persisted, then published (catalog first,
 * then the match frames once the change log gave them their positions),
 * then what went out is recorded behind it (positions, and the write's
 * generation as published), so a new term can tell a change stored but
 * never published and announce it again. A publication waits for its own
 * rows only: the records queue behind the rows sent meanwhile, so a full
 * load of many parts goes out as fast as its rows are stored. The feed's health is published
 * when the poll schedule reports it (HealthBeat), with a stored copy that rides the lease's
 * next PostgreSQL probe. Writes queue in
 * order and are retried with backoff while PostgreSQL is away; the stream
 * does not wait for them.
 */
export class BookOutbox {
  /** Persist-then-publish steps, chained so they leave in the order the book changed. */
  private chain: Promise<void> = Promise.resolve();
  /** The record of the last publication that went out, queued behind the writes before it. */
  private recorded: Promise<void> = Promise.resolve();
  private readonly unpersisted: { readonly write: () => Promise<void>; readonly written: () => void }[] = [];
  private writeFailures = 0;
  /** Grows with every start: a write still in flight from an earlier term leaves the queue alone. */
  private term = 0;
  private retryTimer?: NodeJS.Timeout;
  private readonly publisher: BookChangePublisher;
  /** Publications sent whose rows are not yet stored and published (or given up). */
  private inFlight = 0;
  private readonly catchUps: { readonly atMost: number; readonly go: () => void }[] = [];
  private lastSuccessAt: number | null = null;
  /** When the feed health was last stored (monotonic). */
  private healthStoredAt = Number.NEGATIVE_INFINITY;
  private fullLoaded = false;
  private stopped = false;

  constructor(
    private readonly book: string,
    private readonly pollMs: number,
    private readonly repository: BookRepository,
    private readonly events: NatsEventClient,
    log: ChangeLog,
    private readonly logger: Logger,
    private readonly lease: BookIngestLease,
  ) {
    this.publisher = new BookChangePublisher(
      book,
      log,
      events,
      logger,
      () => repository.topPosition(book),
      () => lease.holds(),
    );
  }

  /**
   * Also after a stop, as a fresh process would: the feed counts as not
   * loaded until the next poll succeeds. Writes still queued are dropped:
   * another ingest may have stored newer state meanwhile, and this one
   * loads the book in full again.
   */
  start(): void {
    this.stopped = false;
    this.lastSuccessAt = null;
    this.fullLoaded = false;
    this.term++;
    for (const waiting of this.unpersisted.splice(0)) waiting.written();
    this.writeFailures = 0;
    this.publisher.start();
  }

  /**
   * Stops retrying failed writes and publishing health at once. The change
   * publisher keeps going until `lastPoll` has settled, so the diffs of a
   * poll in flight still go out; then what is queued is awaited.
   */
  async stop(lastPoll: Promise<void> | undefined): Promise<void> {
    this.stopped = true;
    this.wakeCatchUps();
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    await lastPoll;
    this.publisher.stop();
    await this.chain;
    await this.recorded;
  }

  /** NATS is back: frames waiting for the change log are retried at once. */
  natsReconnected(): void {
    this.publisher.wake();
  }

  /** A stored match's change-log position, read by the seed. */
  recall(matchId: number, seq: number): void {
    this.publisher.recall(matchId, seq);
  }

  /**
   * Queues one publication, built while the book stood as it describes. The
   * write is queued at once, so PostgreSQL keeps up while NATS is away.
   */
  send(publication: BookPublication): void {
    // Set once the rows are stored: writes run in order, so before the record of their publication.
    let gen = 0;
    const persisted = this.persist(async () => {
      gen = await this.repository.write(this.book, publication.write);
    });
    this.inFlight++;
    const step = this.chain.then(async () => {
      await persisted;
      let catalogOut = true;
      for (const message of publication.catalog) catalogOut = this.publishCatalog(message) && catalogOut;
      const positions = await this.publisher.publish(publication.frames);
      const catalogOnly = catalogOut ? publication.catalogOnly : [];
      if (positions.length === 0 && catalogOnly.length === 0) return;
      const published = new Set([...positions.map((p) => p.matchId), ...catalogOnly]);
      const withRemovals = publication.withRemovals.filter((id) => published.has(id));
      // Queued behind the rows of every publication sent since, and not awaited here: the next
      // publication goes out once its own rows are stored, not once this record is. A stop
      // waits for it (`recorded`): the next ingest chains prev_seq from the stored positions.
      this.recorded = this.persist(() =>
        this.repository.writePublished(this.book, gen, {
          positions,
          catalogMatches: catalogOnly,
          withRemovals,
        }),
      );
    });
    this.chain = step.finally(() => {
      this.inFlight--;
      this.wakeCatchUps();
    });
  }

  /**
   * Resolves once at most `atMost` publications are still to be stored and
   * published, or at once when stopped. A load in many parts waits on it
   * before building its next part, so it runs only a little ahead of what
   * PostgreSQL and NATS take: otherwise every part's frames and rows would
   * wait in memory at once, and outlive the young generation into garbage
   * that the heap keeps long after the load. While NATS is away the load
   * waits with its frames: nothing it published could reach a client then.
   */
  caughtUp(atMost: number): Promise<void> {
    if (this.stopped || this.inFlight <= atMost) return Promise.resolve();
    return new Promise((go) => this.catchUps.push({ atMost, go }));
  }

  private wakeCatchUps(): void {
    for (let i = this.catchUps.length - 1; i >= 0; i--) {
      const waiting = this.catchUps[i];
      if (!this.stopped && this.inFlight > waiting.atMost) continue;
      this.catchUps.splice(i, 1);
      waiting.go();
    }
  }

  /** A poll read the whole book successfully at `at` (epoch ms). */
  pollSucceeded(at: number): void {
    this.lastSuccessAt = at;
    this.fullLoaded = true;
  }

  publishHealth(): FeedHealthMessage | undefined {
    if (this.stopped || !this.lease.holds()) return undefined;
    const health: FeedHealthMessage = {
      last_success_at: this.lastSuccessAt,
      full_loaded: this.fullLoaded,
      poll_ms: this.pollMs,
    };
    this.events.emitFrame(DynamicSubjects.oddsHealth(this.book), Buffer.from(JSON.stringify(health), 'utf8'));
    return health;
  }

  /**
   * Also stored (best effort, at most once a second), so a replica starting
   * late knows the feed's health at once. The write is the lease's next
   * PostgreSQL probe (at most one renewal interval later): a quiet second
   * then makes one round trip to PostgreSQL fewer.
   */
  reportHealth(): void {
    const health = this.publishHealth();
    const now = performance.now();
    if (!health || now - this.healthStoredAt < HEALTH_STORED_EVERY_MS) return;
    this.healthStoredAt = now;
    this.lease.carryOnProbe(() => this.repository.writeHealth(this.book, health));
  }

  /**
   * Writes go in order. Resolves once this write is stored, or at once while
   * PostgreSQL is failing: later writes then queue behind the failed one and
   * are written by a retry with backoff, so the stream keeps flowing without
   * waiting on it; the backlog is written once it is back.
   */
  private persist(write: () => Promise<void>): Promise<void> {
    return new Promise((written) => {
      this.unpersisted.push({ write, written });
      if (this.writeFailures > 0) written();
      if (this.unpersisted.length === 1) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    const term = this.term;
    while (this.unpersisted.length > 0) {
      const next = this.unpersisted[0];
      try {
        await next.write();
        if (term !== this.term) return;
        this.unpersisted.shift();
        this.writeFailures = 0;
        next.written();
      } catch (error) {
        if (term !== this.term) return;
        for (const waiting of this.unpersisted) waiting.written();
        if (this.stopped) return;
        const wait = backoffDelay(this.writeFailures++);
        this.logger.warn(
          `Persisting the book failed (${describeError(error)}); ${this.unpersisted.length} writes wait, retrying in ${wait} ms`,
        );
        this.retryTimer = setTimeout(() => {
          this.retryTimer = undefined;
          void this.drain();
        }, wait);
        return;
      }
    }
  }

  /** False when the message was held back: this process may no longer hold the lease. */
  private publishCatalog(message: CatalogMessage): boolean {
    if (!this.lease.holds()) return false;
    this.events.emitFrame(
      DynamicSubjects.oddsCatalog(this.book),
      Buffer.from(JSON.stringify(message), 'utf8'),
    );
    return true;
  }
}
