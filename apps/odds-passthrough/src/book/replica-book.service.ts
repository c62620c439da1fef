import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Clock, retryUntilDone } from '@app/clock';
import { type ChangePosition, NatsLink, PacedQueue } from '@app/messaging';
import {
  type CatalogMessage,
  type FeedHealthMessage,
  type LeagueInfo,
  type MatchInfo,
  type SportInfo,
} from './book-messages';
import { type BookChangeListener, type BookConfig, BookReadPort } from './book-read-port';
import { BOOK_SOURCES, type BookSources } from './book-sources';
import { loadGarbage } from '../common/load-garbage';
import { inParts } from '../common/work-in-parts';
import { BookRepository } from './book.repository';
import type { MatchOdds } from './domain/match-odds';
import { ownBatch, readBatch } from './match-change-batch';
import { type AppliedChange, ReplicaBook } from './replica-book';

export const REPLICA_BOOK_OPTIONS = Symbol('REPLICA_BOOK_OPTIONS');

export interface ReplicaBookOptions {
  /** False in ROLE=ingest, which serves nothing and so keeps no replica. */
  readonly enabled: boolean;
  readonly pollMs: number;
}

interface ReplicaHandle {
  readonly replica: ReplicaBook;
  /** While a load from PostgreSQL runs, NATS messages wait here, in order. */
  buffer?: (() => void)[];
  /**
   * What NATS delivers, one match change (or catalog message) per item, in
   * order: a message carries up to 32 changes, and each change fans out to
   * every subscriber, so a message applied at once could hold the event loop
   * for hundreds of milliseconds (the ingest lease's renewal behind it).
   */
  readonly applies: PacedQueue;
  /** The chain of loads of this book, one at a time. */
  loads: Promise<void>;
}

/**
 * Api side: the Nest service behind BookReadPort, holding one ReplicaBook per
 * configured book. Where a ReplicaBook only applies what it is given, this
 * does the I/O around it: loads each book through BookRepository while the
 * application starts (so it serves without NATS), again once its NATS
 * handlers have subscribed if they did so after that load, and after every
 * reconnect, telling listeners what
 * changed; what arrives during a load waits and is applied after it, so
 * nothing is lost or reordered. BookChangesController feeds it what the
 * ingest publishes; everything else injects the port.
 */
@Injectable()
export class ReplicaBookService extends BookReadPort implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(ReplicaBookService.name);
  private readonly decoder = new TextDecoder();
  private readonly handles = new Map<string, ReplicaHandle>();
  private readonly listeners = new Set<BookChangeListener>();
  private readonly unsubscribers: (() => void)[] = [];
  private readonly retryTimers = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(
    @Inject(BOOK_SOURCES) private readonly sources: BookSources,
    @Inject(REPLICA_BOOK_OPTIONS) private readonly options: ReplicaBookOptions,
    private readonly repository: BookRepository,
    private readonly nats: NatsLink,
    private readonly clock: Clock,
  ) {
    super();
    for (const source of sources) {
      this.handles.set(source.name, {
        replica: new ReplicaBook(source.name),
        loads: Promise.resolve(),
        applies: new PacedQueue(),
        // What NATS delivers before the first load (handlers may listen first) waits for it.
        buffer: options.enabled ? [] : undefined,
      });
    }
  }

  async onModuleInit(): Promise<void> {
    if (!this.options.enabled) return;
    // Reloaded once the NATS handlers have subscribed, when they do so after this load (changes
    // published in between would otherwise be lost; subscriptions confirmed before now are covered
    // by it, which is why main.ts starts them first), and after every reconnect (nats.js restores
    // the subscriptions itself; what was published while the link was down is lost).
    this.unsubscribers.push(
      this.nats.onSubscribed(() => this.resyncAll()),
      this.nats.onReconnect(() => this.resyncAll()),
    );
    await Promise.all([...this.handles.keys()].map((book) => this.reload(book, false)));
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    for (const unsubscribe of this.unsubscribers) unsubscribe();
    for (const timer of this.retryTimers) clearTimeout(timer);
  }

  books(): readonly BookConfig[] {
    return this.sources.map(({ name, prefix, grant }) => ({ name, prefix, grant }));
  }

  snapshot(book: string, matchId: number): MatchOdds | undefined {
    return this.handles.get(book)?.replica.snapshot(matchId, this.clock.now());
  }

  matchPosition(book: string, matchId: number): ChangePosition | undefined {
    return this.handles.get(book)?.replica.position(matchId);
  }

  newestSeq(book: string): number {
    return this.handles.get(book)?.replica.newestSeq ?? 0;
  }

  matchSport(book: string, matchId: number): number | undefined {
    return this.handles.get(book)?.replica.matchSport(matchId);
  }

  matchIds(book: string, sportId?: number): readonly number[] {
    return this.handles.get(book)?.replica.matchIds(sportId) ?? [];
  }

  onChange(listener: BookChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  feedHealthy(book: string): boolean {
    return this.handles.get(book)?.replica.feedHealthy(this.clock.now()) ?? false;
  }

  sports(book: string): readonly SportInfo[] {
    return this.handles.get(book)?.replica.sports() ?? [];
  }

  leagues(book: string): readonly LeagueInfo[] {
    return this.handles.get(book)?.replica.leagues() ?? [];
  }

  matches(book: string): readonly MatchInfo[] {
    return this.handles.get(book)?.replica.matches() ?? [];
  }

  /** Match changes of a book as the ingest published them: `update` frames with their positions. */
  onMatchChanges(book: string, data: Uint8Array): void {
    const handle = this.servedHandle(book);
    if (!handle) return;
    const changes = ownBatch(data) ?? readBatch(this.decoder.decode(data));
    if (!changes) {
      this.logger.warn('Ignored a malformed batch of match changes');
      return;
    }
    for (const change of changes) {
      this.whenLoaded(handle, () =>
        this.emit(handle.replica.applyFrame(change.text, change.position, change.frame)),
      );
    }
  }

  onCatalogChange(book: string, data: Uint8Array): void {
    const handle = this.servedHandle(book);
    const message = handle && this.parse<CatalogMessage>(data, 'catalog');
    if (handle && message) this.whenLoaded(handle, () => handle.replica.applyCatalog(message));
  }

  onFeedHealth(book: string, data: Uint8Array): void {
    const handle = this.servedHandle(book);
    const message = handle && this.parse<FeedHealthMessage>(data, 'health');
    if (handle && message) handle.replica.applyHealth(message);
  }

  /** The replica of a book this process serves; none in ROLE=ingest or for another deployment's book. */
  private servedHandle(book: string): ReplicaHandle | undefined {
    return this.options.enabled && !this.stopped ? this.handles.get(book) : undefined;
  }

  /**
   * Applies what NATS delivered, in order, a few milliseconds' worth per turn
   * of the event loop; changes reached while the book is being (re)loaded
   * wait for the load, then apply in order. One that waited here across the
   * start of a load is older than what the load reads, and the replica skips
   * what is not newer than what it holds.
   */
  private whenLoaded(handle: ReplicaHandle, apply: () => void): void {
    handle.applies.push(() => {
      if (this.stopped) return;
      if (handle.buffer) handle.buffer.push(apply);
      else apply();
    });
  }

  private resyncAll(): void {
    for (const book of this.handles.keys()) void this.reload(book, true);
  }

  /**
   * Loads run one at a time per book: a reload that overlapped another could
   * install an older read of the database over changes applied in between.
   * Resolves once the first attempt has settled, so a database that is down
   * at start does not hold up the application; the retries go on behind.
   */
  private reload(book: string, diff: boolean): Promise<void> {
    const handle = this.handles.get(book);
    if (!handle) return Promise.resolve();
    let firstAttempt!: () => void;
    const settled = new Promise<void>((resolve) => (firstAttempt = resolve));
    handle.loads = handle.loads.then(() => this.loadWithRetry(book, handle, diff, firstAttempt));
    return settled;
  }

  private async loadWithRetry(
    book: string,
    handle: ReplicaHandle,
    diff: boolean,
    firstAttempt: () => void,
  ): Promise<void> {
    handle.buffer ??= [];
    await retryUntilDone(
      async () => {
        try {
          const stored = await this.repository.load(book, this.options.pollMs);
          const changes = await inParts(handle.replica.loading(stored, diff));
          const buffered = handle.buffer ?? [];
          handle.buffer = undefined;
          for (const change of changes) this.emit(change);
          for (const apply of buffered) apply();
          loadGarbage.release(stored.markets.length);
        } finally {
          firstAttempt();
        }
      },
      {
        stopped: () => this.stopped,
        onFailure: (error, wait) =>
          this.logger.warn(
            `Loading book ${book} from PostgreSQL failed (${error instanceof Error ? error.message : String(error)}); retrying in ${wait} ms`,
          ),
        wait: (ms) => this.pause(ms),
      },
    );
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.retryTimers.delete(timer);
        resolve();
      }, ms);
      this.retryTimers.add(timer);
    });
  }

  private emit(applied: AppliedChange | undefined): void {
    if (!applied) return;
    for (const listener of this.listeners) {
      try {
        listener(applied.change, applied.frame, applied.position);
      } catch (error) {
        this.logger.error(
          `A book listener failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
  }

  private parse<T>(data: Uint8Array, what: string): T | undefined {
    try {
      return JSON.parse(this.decoder.decode(data)) as T;
    } catch {
      this.logger.warn(`Ignored a malformed ${what} message`);
      return undefined;
    }
  }
}
