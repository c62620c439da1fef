import { Logger } from '@nestjs/common';
import { backoffDelay, type Clock } from '@app/clock';
import type { ChangeLog, NatsEventClient } from '@app/messaging';
import type { UpstreamMonitor } from '@app/observability';
import type { BookRepository } from '../book/book.repository';
import type { BookCommit, BookDiff, IngestBook, MatchupsLoad } from '../book/domain';
import type { BookSource } from '../config/books';
import { loadGarbage } from '../common/load-garbage';
import { inParts, nextTurn, type Parts } from '../common/work-in-parts';
import { type BookIngestLease, BookOutbox } from './book-outbox';
import { buildPublication } from './book-publication';
import { BookSeed } from './book-seed';
import { CutoffAlarm } from './cutoff-alarm';
import { describeError } from './describe-error';
import { HealthBeat } from './health-beat';
import { type FetchOutcome, SportsbookClient } from './sportsbook-client';
import {
  parseLeagues,
  marketsDeltaInParts,
  marketsFullInParts,
  parseMatchups,
  parsePeriodLabels,
  parseSports,
  type UpstreamLeague,
  type UpstreamSport,
} from '../upstream';

export interface PollSettings {
  readonly pollMs: number;
  readonly relistMs: number;
  readonly timeoutMs: number;
}

/**
 * Cutoffs are checked after every poll; while a poll is late, at most this
 * long after the poll interval (CutoffAlarm). A cutoff itself is waited for exactly.
 */
const CUTOFF_CHECK_MAX_MS = 1000;
/** The wait before checking again when a load was half applied. */
const CUTOFF_RETRY_MS = 200;
/** How often feed health goes out while a poll is late (it goes out after every poll besides). */
const HEALTH_EVERY_MS = 1000;
/**
 * Markets resolved, published and stored per turn of the event loop when a
 * load touches many at once: about ten milliseconds of CPU, so the lease
 * keeps renewing with a wide margin even on a throttled core, and the api
 * side of a ROLE=all process keeps answering.
 */
const MARKETS_PER_PART = 500;
/**
 * Parts of a load built ahead of what the outbox has stored and published:
 * enough to keep PostgreSQL busy while the next part resolves, few enough
 * that a part's frames and rows die young (see `BookOutbox.caughtUp`).
 */
const PARTS_AHEAD = 4;

class UpstreamFault extends Error {}

interface SportCursor {
  /** The `last` of the previous markets answer; undefined forces a full load. */
  cursor?: number;
  /** The sport's league list as last read, and when (monotonic), so it is re-read on the relist interval. */
  leagues?: LeagueList;
}

interface LeagueList {
  readonly leagues: readonly UpstreamLeague[];
  readonly ids: ReadonlySet<number>;
  readonly readAt: number;
}

function leagueList(leagues: readonly UpstreamLeague[]): LeagueList {
  return { leagues, ids: new Set(leagues.map((league) => league.id)), readAt: performance.now() };
}

/**
 * Re-listing is a schedule, not a decision about the data, so it runs on the
 * process's monotonic time rather than the injected clock.
 */
function elapsedSince(monotonicMs: number): number {
  return performance.now() - monotonicMs;
}

/**
 * One sportsbook's ingest, on its schedule. `start` seeds the book (BookSeed),
 * then polls: a full load at start and after any fault, then every poll
 * interval the market delta with the matchup listing (conditional requests,
 * so an unchanged listing costs a 304), re-listing sports and leagues every
 * relist interval; cutoffs are checked when they pass (CutoffAlarm) and feed
 * health is reported after each poll (HealthBeat). Each diff goes to the book's
 * BookOutbox; a fault keeps the book and retries with capped backoff. `stop`
 * resolves once what was in flight has gone out, and `start` may follow it:
 * the book is seeded again and loaded in full, as by a fresh process.
 */
export class BookPollSchedule {
  private readonly logger: Logger;
  private readonly client: SportsbookClient;
  private readonly seed: BookSeed;
  private readonly outbox: BookOutbox;
  private book?: IngestBook;
  private readonly cursors = new Map<number, SportCursor>();
  private sportsListedAt = -Infinity;
  private failures = 0;
  private stopped = false;
  private loop?: Promise<void>;
  /** While a load is applied part by part, the book is half-resolved: cutoffs wait for it. */
  private applyingParts = false;
  /** Markets the current cycle's full loads brought. */
  private loadedInFull = 0;
  private wake?: () => void;
  private readonly cutoffs: CutoffAlarm;
  private readonly health: HealthBeat;

  constructor(
    private readonly source: BookSource,
    private readonly settings: PollSettings,
    repository: BookRepository,
    events: NatsEventClient,
    private readonly clock: Clock,
    private readonly upstream: UpstreamMonitor,
    log: ChangeLog,
    lease: BookIngestLease,
  ) {
    this.logger = new Logger(`BookPoller:${source.name}`);
    this.client = new SportsbookClient(source.upstreamUrl, settings.timeoutMs);
    this.outbox = new BookOutbox(source.name, settings.pollMs, repository, events, log, this.logger, lease);
    this.seed = new BookSeed(source.name, repository, this.logger);
    this.cutoffs = new CutoffAlarm(clock, {
      nextCutoff: () => this.book?.nextCutoff(),
      check: () => this.checkCutoffs(),
      capMs: settings.pollMs + CUTOFF_CHECK_MAX_MS,
      retryMs: CUTOFF_RETRY_MS,
    });
    this.health = new HealthBeat(() => this.outbox.reportHealth(), settings.pollMs, HEALTH_EVERY_MS);
  }

  /** Starts polling; after a stop, only once `stop()` has resolved. */
  start(): void {
    this.stopped = false;
    this.book = undefined;
    this.cursors.clear();
    this.sportsListedAt = -Infinity;
    this.failures = 0;
    this.client.forget();
    this.outbox.start();
    this.loop = this.run();
    this.cutoffs.start();
    this.health.start();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.cutoffs.stop();
    this.health.stop();
    this.wake?.();
    await this.outbox.stop(this.loop);
    this.client.close();
  }

  /** NATS is back: frames waiting for the change log are retried at once. */
  natsReconnected(): void {
    this.outbox.natsReconnected();
  }

  private async run(): Promise<void> {
    this.book = await this.seed.load({
      recall: (matchId, seq) => this.outbox.recall(matchId, seq),
      stopped: () => this.stopped,
      wait: (ms) => this.sleep(ms),
    });
    while (!this.stopped) {
      let wait: number;
      const started = performance.now();
      try {
        await this.cycle();
        this.afterFullLoads();
        this.upstream.recordPoll(this.source.name, (performance.now() - started) / 1000, true);
        this.outbox.pollSucceeded(this.clock.now());
        this.failures = 0;
        wait = this.settings.pollMs;
      } catch (error) {
        this.upstream.recordPoll(this.source.name, (performance.now() - started) / 1000, false);
        // Any fault: the next cycle reloads everything in full.
        this.cursors.clear();
        this.sportsListedAt = -Infinity;
        wait = backoffDelay(this.failures++);
        this.logger.warn(`Sportsbook poll failed (${describeError(error)}); retrying in ${wait} ms`);
      }
      this.health.polled();
      this.cutoffs.recheck();
      await this.sleep(wait);
    }
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
      if (labels.kind === 'ok')
        await this.applyInParts(book.labelsInParts(sportId, labels.value, this.clock.now()));
      else if (labels.kind === 'fault') throw new UpstreamFault(labels.error);
    }
    const position = this.cursors.get(sportId);
    if (position?.cursor === undefined) {
      await this.fullLoad(book, sportId);
      return;
    }
    const delta = await this.client.getInParts(
      `sports/${sportId}/markets?since=${position.cursor}`,
      'markets',
      marketsDeltaInParts,
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
    const listing = await this.listMatchups(sportId, position);
    this.apply(book.applyDelta(sportId, value, this.clock.now(), listing));
    position.cursor = value.last;
  }

  private async fullLoad(book: IngestBook, sportId: number): Promise<void> {
    const leagues = expect(await this.client.get(`sports/${sportId}/leagues`, parseLeagues), 'leagues');
    const matchups = expect(await this.client.get(`sports/${sportId}/matchups`, parseMatchups), 'matchups');
    const markets = expect(
      await this.client.getInParts(`sports/${sportId}/markets`, 'markets', marketsFullInParts),
      'markets',
    );
    // Reading a big answer took a while of CPU: let timers and I/O run before indexing it.
    await nextTurn();
    if (this.stopped) return;
    const load = { leagues: leagues.value, matchups: matchups.value, markets: markets.value.markets };
    await this.applyInParts(book.fullInParts(sportId, load, this.clock.now()));
    this.cursors.set(sportId, { cursor: markets.value.last, leagues: leagueList(leagues.value) });
    this.loadedInFull += load.markets.length;
  }

  /** Once what the cycle's full loads published has gone out, their garbage is released. */
  private afterFullLoads(): void {
    const markets = this.loadedInFull;
    if (markets === 0) return;
    this.loadedInFull = 0;
    void this.outbox.caughtUp(0).then(() => {
      if (!this.stopped) loadGarbage.release(markets);
    });
  }

  /**
   * Indexes a load, then publishes its commit part by part, yielding to the
   * event loop between parts and staying at most PARTS_AHEAD parts ahead of
   * the outbox. A stop abandons the rest: the next start seeds a new book.
   */
  private async applyInParts(begin: Parts<BookCommit>): Promise<void> {
    this.applyingParts = true;
    try {
      const commit = await inParts(begin);
      while (!commit.done && !this.stopped) {
        await nextTurn();
        await this.outbox.caughtUp(PARTS_AHEAD);
        if (this.stopped) break;
        this.apply(commit.next(MARKETS_PER_PART));
      }
    } finally {
      this.applyingParts = false;
    }
  }

  /**
   * Leagues and matchups of a sport, or undefined when neither changed since
   * the last read. Matchups are read every poll (period statuses change
   * there); leagues on the relist interval, and at once when a matchup names
   * a league not listed yet, so a new matchup still comes with its league.
   */
  private async listMatchups(sportId: number, position: SportCursor): Promise<MatchupsLoad | undefined> {
    const matchups = expect(await this.client.get(`sports/${sportId}/matchups`, parseMatchups), 'matchups');
    let known = position.leagues;
    let leaguesChanged = false;
    if (
      !known ||
      elapsedSince(known.readAt) >= this.settings.relistMs ||
      (!matchups.notModified && matchups.value.some((matchup) => !known?.ids.has(matchup.league_id)))
    ) {
      const leagues = expect(await this.client.get(`sports/${sportId}/leagues`, parseLeagues), 'leagues');
      known = position.leagues = leagueList(leagues.value);
      leaguesChanged = !leagues.notModified;
    }
    if (matchups.notModified && !leaguesChanged) return undefined;
    return { leagues: known.leagues, matchups: matchups.value };
  }

  private forgetSportsOtherThan(sports: readonly UpstreamSport[]): void {
    const listed = new Set(sports.map((sport) => sport.id));
    for (const id of this.cursors.keys()) if (!listed.has(id)) this.cursors.delete(id);
  }

  /** False while the book cannot be checked (not seeded yet, or a load half applied). */
  private checkCutoffs(): boolean {
    const book = this.book;
    if (!book || this.applyingParts) return false;
    const next = book.nextCutoff();
    const now = this.clock.now();
    if (next !== undefined && next <= now) this.apply(book.tick(now));
    return true;
  }

  /** The payloads are built now, while the book stands as the diff left it; the outbox sends them. */
  private apply(diff: BookDiff): void {
    const publication = buildPublication(this.requireBook(), diff);
    if (publication) this.outbox.send(publication);
    this.cutoffs.arm();
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
