import { Logger } from '@nestjs/common';
import { backoffDelay, type Clock, retryUntilDone } from '@app/clock';
import { type ChangeLog, DynamicSubjects, type NatsEventClient } from '@app/messaging';
import type { UpstreamMonitor } from '@app/observability';
import type { CatalogMessage, FeedHealthMessage } from '../book/book-messages';
import type { BookRepository, BookWrite } from '../book/book.repository';
import { type BookDiff, IngestBook, type MatchupsLoad, type SeedMatch } from '../book/domain';
import type { BookSource } from '../config/books';
import { BookChangePublisher } from './book-change-publisher';
import { buildPublication } from './book-publication';
import { type FetchOutcome, SportsbookClient } from './sportsbook-client';
import {
  parseLeagues,
  parseMarketsDelta,
  parseMarketsFull,
  parseMatchups,
  parsePeriodLabels,
  parseSports,
  type UpstreamSport,
} from '../upstream';

export interface PollSettings {
  readonly pollMs: number;
  readonly relistMs: number;
  readonly timeoutMs: number;
}

/** How often cutoffs are checked: a passed cutoff is published well within a second. */
const CUTOFF_CHECK_MS = 200;
/** How often feed health goes out besides after each poll, so late replicas learn it quickly. */
const HEALTH_EVERY_MS = 1000;

class UpstreamFault extends Error {}

interface SportCursor {
  /** The `last` of the previous markets answer; undefined forces a full load. */
  cursor?: number;
}

/**
 * Re-listing is a schedule, not a decision about the data, so it runs on the
 * process's monotonic time rather than the injected clock.
 */
function elapsedSince(monotonicMs: number): number {
  return performance.now() - monotonicMs;
}

/**
 * Reads one sportsbook: a full load at start and after any fault, then every
 * poll interval the market delta with the matchup listing (conditional
 * requests, so an unchanged listing costs a 304), re-listing sports every
 * relist interval. Every change is published, and persisted behind it; a
 * fault keeps the state and retries with capped backoff.
 */
export class BookPollSchedule {
  private readonly logger: Logger;
  private readonly client: SportsbookClient;
  private book?: IngestBook;
  private readonly cursors = new Map<number, SportCursor>();
  private sportsListedAt = -Infinity;
  private lastSuccessAt: number | null = null;
  private fullLoaded = false;
  private failures = 0;
  private stopped = false;
  private loop?: Promise<void>;
  private wake?: () => void;
  private readonly timers: NodeJS.Timeout[] = [];
  /** Persist-then-publish steps, chained so they leave in the order the state changed. */
  private outbox: Promise<void> = Promise.resolve();
  private readonly unpersisted: { readonly write: BookWrite; readonly written: () => void }[] = [];
  private writeFailures = 0;
  private readonly publisher: BookChangePublisher;

  constructor(
    private readonly source: BookSource,
    private readonly settings: PollSettings,
    private readonly repository: BookRepository,
    private readonly events: NatsEventClient,
    private readonly clock: Clock,
    private readonly upstream: UpstreamMonitor,
    log: ChangeLog,
  ) {
    this.logger = new Logger(`BookPoller:${source.name}`);
    this.client = new SportsbookClient(source.upstreamUrl, settings.timeoutMs);
    this.publisher = new BookChangePublisher(source.name, log, events, this.logger, () =>
      repository.topPosition(source.name),
    );
  }

  start(): void {
    this.publisher.start();
    this.loop = this.run();
    this.timers.push(
      setInterval(() => this.checkCutoffs(), CUTOFF_CHECK_MS),
      setInterval(() => this.reportHealth(), HEALTH_EVERY_MS),
    );
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.wake?.();
    await this.loop;
    this.publisher.stop();
    await this.outbox;
  }

  /** NATS is back: frames waiting for the change log are retried at once. */
  natsReconnected(): void {
    this.publisher.wake();
  }

  private async run(): Promise<void> {
    this.book = await this.seededBook();
    while (!this.stopped) {
      let wait: number;
      const started = performance.now();
      try {
        await this.cycle();
        this.upstream.recordPoll(this.source.name, (performance.now() - started) / 1000, true);
        this.lastSuccessAt = this.clock.now();
        this.failures = 0;
        this.fullLoaded = true;
        wait = this.settings.pollMs;
      } catch (error) {
        this.upstream.recordPoll(this.source.name, (performance.now() - started) / 1000, false);
        // Any fault: the next cycle reloads everything in full.
        this.cursors.clear();
        this.sportsListedAt = -Infinity;
        wait = backoffDelay(this.failures++);
        this.logger.warn(`Sportsbook poll failed (${describe(error)}); retrying in ${wait} ms`);
      }
      this.publishHealth();
      await this.sleep(wait);
    }
  }

  /** Restores the persisted versions, so a restarted ingest keeps every market_key's version growing. */
  private async seededBook(): Promise<IngestBook> {
    const seeded = await retryUntilDone(() => this.readSeed(), {
      stopped: () => this.stopped,
      onFailure: (error, wait) =>
        this.logger.warn(`Reading the stored book failed (${describe(error)}); retrying in ${wait} ms`),
      wait: (ms) => this.sleep(ms),
    });
    return seeded ?? new IngestBook(this.source.name);
  }

  private async readSeed(): Promise<IngestBook> {
    const stored = await this.repository.load(this.source.name, this.settings.pollMs);
    const markets = new Map<number, SeedMatch['markets'][number][]>();
    for (const market of stored.markets) {
      const list = markets.get(market.matchId) ?? [];
      list.push({ marketKey: market.marketKey, version: market.version, selections: market.selections });
      markets.set(market.matchId, list);
    }
    const seed: SeedMatch[] = stored.matches.map(({ info, ts, position }) => {
      if (position) this.publisher.recall(info.id, position.seq);
      return { match: info, ts, markets: markets.get(info.id) ?? [] };
    });
    return new IngestBook(this.source.name, seed);
  }

  private async cycle(): Promise<void> {
    const book = this.requireBook();
    if (elapsedSince(this.sportsListedAt) >= this.settings.relistMs) {
      const sports = expect(await this.client.get('sports', parseSports), 'sports');
      if (!sports.notModified || book.sports().length === 0) {
        this.apply(book.applySports(sports.value, this.clock.now()));
      }
      this.sportsListedAt = performance.now();
      this.forgetSportsOtherThan(sports.value);
    }
    for (const sport of book.sports()) {
      if (this.stopped) return;
      await this.pollSport(book, sport.id);
    }
  }

  private async pollSport(book: IngestBook, sportId: number): Promise<void> {
    if (!book.hasLabels(sportId)) {
      // A cold book answers 503 or []: names stay generic until it loads, then markets are renamed.
      const labels = await this.client.get(`sports/${sportId}/periods`, parsePeriodLabels);
      if (labels.kind === 'ok') this.apply(book.applyLabels(sportId, labels.value, this.clock.now()));
      else if (labels.kind === 'fault') throw new UpstreamFault(labels.error);
    }
    const position = this.cursors.get(sportId);
    if (position?.cursor === undefined) {
      await this.fullLoad(book, sportId);
      return;
    }
    const delta = await this.client.get(
      `sports/${sportId}/markets?since=${position.cursor}`,
      parseMarketsDelta,
    );
    if (delta.kind === 'gone') {
      this.logger.log(`Cursor of sport ${sportId} expired; reloading it in full`);
      await this.fullLoad(book, sportId);
      return;
    }
    const value = expect(delta, `markets of sport ${sportId}`).value;
    // Period statuses (suspended, reopened) change only in the matchup listing: it is read on
    // every poll, conditionally (a 304 while nothing changed), and applied with the delta in one
    // pass, so a new match is announced once, with the markets that named it.
    const listing = await this.listMatchups(sportId);
    this.apply(book.applyDelta(sportId, value, this.clock.now(), listing));
    position.cursor = value.last;
  }

  private async fullLoad(book: IngestBook, sportId: number): Promise<void> {
    const leagues = expect(await this.client.get(`sports/${sportId}/leagues`, parseLeagues), 'leagues');
    const matchups = expect(await this.client.get(`sports/${sportId}/matchups`, parseMatchups), 'matchups');
    const markets = expect(await this.client.get(`sports/${sportId}/markets`, parseMarketsFull), 'markets');
    const now = this.clock.now();
    this.apply(
      book.applyFull(
        sportId,
        { leagues: leagues.value, matchups: matchups.value, markets: markets.value.markets },
        now,
      ),
    );
    this.cursors.set(sportId, { cursor: markets.value.last });
  }

  /** Leagues and matchups of a sport, or undefined when neither changed since the last read. */
  private async listMatchups(sportId: number): Promise<MatchupsLoad | undefined> {
    const leagues = expect(await this.client.get(`sports/${sportId}/leagues`, parseLeagues), 'leagues');
    const matchups = expect(await this.client.get(`sports/${sportId}/matchups`, parseMatchups), 'matchups');
    if (leagues.notModified && matchups.notModified) return undefined;
    return { leagues: leagues.value, matchups: matchups.value };
  }

  private forgetSportsOtherThan(sports: readonly UpstreamSport[]): void {
    const listed = new Set(sports.map((sport) => sport.id));
    for (const id of this.cursors.keys()) if (!listed.has(id)) this.cursors.delete(id);
  }

  private checkCutoffs(): void {
    const book = this.book;
    if (!book || this.stopped) return;
    const next = book.nextCutoff();
    const now = this.clock.now();
    if (next !== undefined && next <= now) this.apply(book.tick(now));
  }

  /**
   * Builds the payloads now (the state moves on), persists them, then
   * publishes them in order: catalog first, then each match frame once the
   * change log gave it its position, which is stored behind it. The write is
   * queued at once, so PostgreSQL keeps up while NATS is away.
   */
  private apply(diff: BookDiff): void {
    const publication = buildPublication(this.requireBook(), diff);
    if (!publication) return;
    const persisted = this.persist(publication.write);
    this.outbox = this.outbox.then(async () => {
      await persisted;
      for (const message of publication.catalog) this.publishCatalog(message);
      const positions = await this.publisher.publish(publication.frames);
      // Awaited, so a stop waits for it: the next ingest chains prev_seq from the stored positions.
      if (positions.length > 0) await this.persist({ ...NO_ROWS, positions });
    });
  }

  /**
   * Writes go in order. Resolves once this write is stored, or at once while
   * PostgreSQL is failing: later writes then queue behind the failed one and
   * are written by a retry with backoff, so the stream keeps flowing without
   * waiting on it; the backlog is written once it is back.
   */
  private persist(write: BookWrite): Promise<void> {
    return new Promise((written) => {
      this.unpersisted.push({ write, written });
      if (this.writeFailures > 0) written();
      if (this.unpersisted.length === 1) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    while (this.unpersisted.length > 0) {
      const next = this.unpersisted[0];
      try {
        await this.repository.write(this.source.name, next.write);
        this.unpersisted.shift();
        this.writeFailures = 0;
        next.written();
      } catch (error) {
        for (const waiting of this.unpersisted) waiting.written();
        if (this.stopped) return;
        const wait = backoffDelay(this.writeFailures++);
        this.logger.warn(
          `Persisting the book failed (${describe(error)}); ${this.unpersisted.length} writes wait, retrying in ${wait} ms`,
        );
        const timer = setTimeout(() => {
          this.timers.splice(this.timers.indexOf(timer), 1);
          void this.drain();
        }, wait);
        this.timers.push(timer);
        return;
      }
    }
  }

  private publishCatalog(message: CatalogMessage): void {
    this.events.emitFrame(
      DynamicSubjects.oddsCatalog(this.source.name),
      encoder.encode(JSON.stringify(message)),
    );
  }

  private publishHealth(): FeedHealthMessage | undefined {
    if (this.stopped) return undefined;
    const health: FeedHealthMessage = {
      last_success_at: this.lastSuccessAt,
      full_loaded: this.fullLoaded,
      poll_ms: this.settings.pollMs,
    };
    this.events.emitFrame(
      DynamicSubjects.oddsHealth(this.source.name),
      encoder.encode(JSON.stringify(health)),
    );
    return health;
  }

  /** Also stored (best effort, once a second), so a replica starting late knows the feed's health at once. */
  private reportHealth(): void {
    const health = this.publishHealth();
    if (health) this.repository.writeHealth(this.source.name, health).catch(() => undefined);
  }

  private requireBook(): IngestBook {
    if (!this.book) throw new Error('the ingest book is not loaded yet');
    return this.book;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }
}

const encoder = new TextEncoder();

const NO_ROWS: BookWrite = { leagues: [], matches: [], removedMatches: [], markets: [], removedMarkets: [] };

function expect<T>(outcome: FetchOutcome<T>, what: string): { value: T; notModified: boolean } {
  switch (outcome.kind) {
    case 'ok':
      return outcome;
    case 'gone':
      throw new UpstreamFault(`${what}: 410 Gone`);
    case 'unavailable':
      throw new UpstreamFault(`${what}: HTTP ${outcome.status}`);
    case 'fault':
      throw new UpstreamFault(outcome.error);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
