import type { UpstreamMarket, UpstreamPeriodLabel, UpstreamSport } from '../../upstream';
import { drain, type Parts } from '../../common/work-in-parts';
import { BookCommit } from './book-commit';
import type {
  BookDiff,
  BookLeague,
  BookSport,
  FullLoad,
  MarketsDelta,
  MatchupsLoad,
  SeedMatch,
} from './book-diff';
import type { MatchOdds } from './match-odds';
import { type BookPass, type HeldMatch, sameMatchup } from './held-book';
import { HeldBookEdits } from './held-book-edits';
import { HeldMatches } from './held-matches';
import { IngestCatalog } from './ingest-catalog';
import { MarketCutoffs } from './market-cutoffs';
import { MatchCommit } from './match-commit';
import { PendingMarkets } from './pending-markets';
import type { PublicMatch } from './public-match';
import type { Selection } from './selection';
import { selectionsAt } from './selection-status';

/** Markets indexed per part of a parted load: a few milliseconds of work. */
const MARKETS_PER_PART = 5000;

/**
 * Ingest side: one sportsbook as the ingest reads it, and the diff engine that turns each
 * poll into per-match changes. It is where versions are issued: every change a client can see
 * gets a version greater than the last one issued for its market_key (see `nextVersion`).
 * Api replicas never hold one; they apply the changes it produced to a ReplicaBook. Pure: no
 * I/O, time comes in as `now` (epoch ms); the ingest seeds it from BookRepository's rows.
 *
 * Work is proportional to what changed: markets are indexed by (matchup, book key) and a
 * market whose book version is unchanged is not resolved again. This reads what a poll lists
 * and decides what it means; HeldBookEdits applies that to the held records and notes what it
 * made dirty; MatchCommit resolves and versions it, a match at a time.
 */
export class IngestBook {
  private readonly catalog = new IngestCatalog();
  private readonly held = new HeldMatches();
  private readonly pending = new PendingMarkets();
  private readonly cutoffs = new MarketCutoffs();
  private readonly edits = new HeldBookEdits(this.held, this.pending, this.cutoffs);
  private readonly matchCommit: MatchCommit;
  /** Marks what one load listed, so whatever it did not list can be withdrawn. */
  private generation = 0;

  constructor(
    readonly book: string,
    seed?: readonly SeedMatch[],
  ) {
    this.matchCommit = new MatchCommit(book, this.catalog, this.cutoffs);
    if (seed) this.seed(seed);
  }

  /** Restores persisted matches and versions; call before the first load. */
  seed(matches: readonly SeedMatch[]): void {
    for (const s of matches) {
      const held = this.held.get(s.match.id) ?? this.held.add(s.match.id, s.match.sport_id);
      held.published = s.match;
      held.reannounce ||= s.unpublished === true;
      held.ts = Math.max(held.ts, s.ts);
      for (const m of s.markets) {
        held.versions.set(m.marketKey, Math.max(held.versions.get(m.marketKey) ?? 0, m.version));
        if (!held.byKey.has(m.marketKey)) held.seeded.set(m.marketKey, m);
      }
    }
  }

  // ---- reads ----------------------------------------------------------------

  sports(): BookSport[] {
    return this.catalog.sports();
  }

  leagues(sportId?: number): BookLeague[] {
    return this.catalog.leagues(sportId);
  }

  hasLabels(sportId: number): boolean {
    return this.catalog.hasLabels(sportId);
  }

  /** Matches the book currently lists, sorted by id. */
  matches(): PublicMatch[] {
    const out: PublicMatch[] = [];
    for (const held of this.held.all()) {
      if (held.matchup === undefined || held.published === undefined) continue;
      out.push(held.published);
    }
    return out.sort((a, b) => a.id - b.id);
  }

  match(matchId: number): PublicMatch | undefined {
    const held = this.held.get(matchId);
    return held?.matchup === undefined ? undefined : held.published;
  }

  /** A match's full current state with every status evaluated at `now`. */
  matchOdds(matchId: number, now: number): MatchOdds | undefined {
    const held = this.held.get(matchId);
    if (held?.matchup === undefined) return undefined;
    const selections: Selection[] = [];
    for (const market of held.byKey.values()) {
      for (const s of selectionsAt(market.selections, now)) selections.push(s);
    }
    return { match_id: held.id, sport_id: held.sportId, ts: held.ts, selections };
  }

  /** Number of markets currently published. */
  marketCount(): number {
    let n = 0;
    for (const held of this.held.all()) n += held.byKey.size;
    return n;
  }

  /** The earliest cutoff of an unlocked market; `tick` at that time publishes its lock. */
  nextCutoff(): number | undefined {
    return this.cutoffs.next();
  }

  // ---- writes ---------------------------------------------------------------

  /** The full sports list; a sport no longer listed takes its leagues and matches with it. */
  applySports(sports: readonly UpstreamSport[], now: number): BookDiff {
    const pass = this.beginPass();
    const { changed, dropped } = this.catalog.replaceSports(sports);
    for (const id of dropped) this.edits.dropSport(pass, id);
    return this.commit(pass, now, changed);
  }

  /**
   * A sport's period label table. An empty table means the book is still cold and is
   * ignored. A new or different table renames the sport's markets, with greater versions.
   */
  applyLabels(sportId: number, labels: readonly UpstreamPeriodLabel[], now: number): BookDiff {
    return this.beginLabels(sportId, labels, now).next();
  }

  /** `applyLabels`, resolved in parts like `beginFull`: a rename may touch every market of the sport. */
  beginLabels(sportId: number, labels: readonly UpstreamPeriodLabel[], now: number): BookCommit {
    return drain(this.labelsInParts(sportId, labels, now));
  }

  /** `beginLabels`, marking the sport's markets a part at a time. */
  *labelsInParts(sportId: number, labels: readonly UpstreamPeriodLabel[], now: number): Parts<BookCommit> {
    const pass = this.beginPass();
    if (this.catalog.replaceLabels(sportId, labels)) {
      let inPart = 0;
      for (const match of this.held.ofSport(sportId)) {
        inPart += match.markets.size;
        if (inPart >= MARKETS_PER_PART) {
          inPart = 0;
          yield;
        }
        for (const market of match.markets.values()) this.edits.markDirty(pass, market);
      }
    }
    return this.commitInParts(pass, now);
  }

  /** A full load: leagues, matchups and markets of one sport; whatever is not listed is withdrawn. */
  applyFull(sportId: number, load: FullLoad, now: number): BookDiff {
    return this.beginFull(sportId, load, now).next();
  }

  /**
   * `applyFull`, its resolution taken in parts (BookCommit). Until the last
   * part is taken the book is half-resolved: nothing else may be applied.
   */
  beginFull(sportId: number, load: FullLoad, now: number): BookCommit {
    return drain(this.fullInParts(sportId, load, now));
  }

  /**
   * `beginFull`, the load itself indexed a part at a time: from the first
   * part on the book is half-updated, until the commit's last part is taken.
   */
  *fullInParts(sportId: number, load: FullLoad, now: number): Parts<BookCommit> {
    const pass = this.beginPass();
    this.loadMatchups(sportId, load, pass);
    yield* this.loadMarkets(sportId, load.markets, pass);
    return this.commitInParts(pass, now);
  }

  /**
   * A delta answer, with the matchup listing of the same poll when it
   * changed: one pass, so a period status change lands with the prices of
   * that poll and a match the delta names for the first time is published
   * once, with its markets. Withdrawals first, so a keyless market whose
   * line moved reappears.
   */
  applyDelta(sportId: number, delta: MarketsDelta, now: number, matchups?: MatchupsLoad): BookDiff {
    const pass = this.beginPass();
    if (matchups) this.loadMatchups(sportId, matchups, pass);
    for (const w of delta.withdrawn) {
      const market = this.held.get(w.matchup_id)?.markets.get(w.key);
      if (market) this.edits.removeMarket(pass, market);
      this.pending.withdraw(sportId, w.matchup_id, w.key);
    }
    for (const wire of delta.markets) this.edits.upsertMarket(pass, sportId, wire);
    return this.commit(pass, now);
  }

  /** Publishes the locks of every market whose cutoff is at or before `now`. */
  tick(now: number): BookDiff {
    const pass = this.beginPass();
    for (const market of this.cutoffs.takeDue(now)) {
      if (!market.removed) this.edits.markDirty(pass, market);
    }
    return this.commit(pass, now);
  }

  // ---- internals ------------------------------------------------------------

  private beginPass(): BookPass {
    this.generation++;
    return new Map();
  }

  private loadMatchups(sportId: number, load: MatchupsLoad, pass: BookPass): void {
    const gen = this.generation;
    const renamedLeagues = this.catalog.replaceLeagues(sportId, load.leagues);
    for (const matchup of load.matchups) {
      let held = this.held.get(matchup.id);
      if (!held) {
        held = this.held.add(matchup.id, sportId);
        this.edits.passOf(pass, held).added = true;
      } else {
        this.held.moveSport(held, sportId);
      }
      held.seenGen = gen;
      const wasSeedOnly = held.matchup === undefined;
      if (held.matchup === undefined || !sameMatchup(held.matchup, matchup)) {
        held.matchup = matchup;
        const p = this.edits.passOf(pass, held);
        p.fieldsDirty = true;
        for (const market of held.markets.values()) p.dirty.add(market);
      } else if (renamedLeagues.has(matchup.league_id)) {
        this.edits.passOf(pass, held).fieldsDirty = true;
      }
      if (wasSeedOnly) this.edits.adoptPending(pass, sportId, held);
    }
    for (const held of [...this.held.ofSport(sportId)]) {
      if (held.seenGen !== gen) this.edits.removeMatch(pass, held);
    }
  }

  /** The hot path of a full poll: most markets are matched by position and skipped by version. */
  private *loadMarkets(sportId: number, markets: readonly UpstreamMarket[], pass: BookPass): Parts<void> {
    const gen = this.generation;
    this.pending.dropSport(sportId);
    let held: HeldMatch | undefined;
    let inPart = 0;
    for (const wire of markets) {
      if (++inPart === MARKETS_PER_PART) {
        inPart = 0;
        yield;
      }
      if (held?.id !== wire.matchup_id) {
        held = this.held.get(wire.matchup_id);
        if (held !== undefined && held.listingGen !== gen) {
          held.listingGen = gen;
          held.readAt = 0;
          held.writeAt = 0;
        }
      }
      if (held?.matchup === undefined) {
        this.edits.upsertMarket(pass, sportId, wire);
        continue;
      }
      const guess = held.listed[held.readAt++];
      const market =
        guess !== undefined && !guess.removed && guess.bookKey === wire.key
          ? this.edits.refreshMarket(pass, guess, wire)
          : this.edits.upsertMarket(pass, sportId, wire);
      if (market === undefined || market.seenGen === gen) continue;
      market.seenGen = gen;
      held.listed[held.writeAt++] = market;
    }
    for (const held of this.held.ofSport(sportId)) {
      inPart += held.markets.size + held.seeded.size;
      if (inPart >= MARKETS_PER_PART) {
        inPart = 0;
        yield;
      }
      if (held.listingGen === gen) held.listed.length = held.writeAt;
      else held.listed = [];
      // the listing holds each market seen once: as many as held means none went unlisted
      if (held.listed.length !== held.markets.size) {
        for (const market of held.markets.values()) {
          if (market.seenGen !== gen) this.edits.removeMarket(pass, market);
        }
      }
      if (held.seeded.size > 0 && held.matchup !== undefined) this.edits.dropUnlistedSeeds(pass, held);
    }
  }

  /** Resolves every dirty market, issues versions for what clients will see differently. */
  private commit(pass: BookPass, now: number, sportsChanged = false): BookDiff {
    return this.commitInParts(pass, now, sportsChanged).next();
  }

  private commitInParts(pass: BookPass, now: number, sportsChanged = false): BookCommit {
    return new BookCommit(
      pass,
      sportsChanged,
      () => this.catalog.takeLeaguesChanged(),
      (held, p, diff) => this.matchCommit.commit(held, p, diff, now),
    );
  }
}
