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
import {
  type BookPass,
  type HeldMarket,
  type HeldMatch,
  type MatchPass,
  newHeldMarket,
  newMatchPass,
  sameMatchup,
} from './held-book';
import { HeldMatches } from './held-matches';
import { IngestCatalog } from './ingest-catalog';
import { MarketCutoffs } from './market-cutoffs';
import { marketKeyOf } from './market-key';
import { selectionsOf } from './market-publication';
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
 * market whose book version is unchanged is not resolved again. This finds what a poll made
 * dirty; MatchCommit resolves and versions it, a match at a time.
 */
export class IngestBook {
  private readonly catalog = new IngestCatalog();
  private readonly held = new HeldMatches();
  private readonly pending = new PendingMarkets();
  private readonly cutoffs = new MarketCutoffs();
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
      for (const s of selectionsAt(selectionsOf(market), now)) selections.push(s);
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
    for (const id of dropped) this.dropSport(id, pass);
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
        for (const market of match.markets.values()) this.markDirty(pass, market);
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
      if (market) this.removeMarket(pass, market);
      this.pending.withdraw(sportId, w.matchup_id, w.key);
    }
    for (const wire of delta.markets) this.upsertMarket(sportId, wire, pass);
    return this.commit(pass, now);
  }

  /** Publishes the locks of every market whose cutoff is at or before `now`. */
  tick(now: number): BookDiff {
    const pass = this.beginPass();
    for (const market of this.cutoffs.takeDue(now)) {
      if (!market.removed) this.markDirty(pass, market);
    }
    return this.commit(pass, now);
  }

  // ---- internals ------------------------------------------------------------

  private beginPass(): BookPass {
    this.generation++;
    return new Map();
  }

  private passOf(pass: BookPass, match: HeldMatch): MatchPass {
    let p = pass.get(match);
    if (!p) {
      p = newMatchPass();
      pass.set(match, p);
    }
    return p;
  }

  private markDirty(pass: BookPass, market: HeldMarket): void {
    this.passOf(pass, market.match).dirty.add(market);
  }

  private loadMatchups(sportId: number, load: MatchupsLoad, pass: BookPass): void {
    const gen = this.generation;
    const renamedLeagues = this.catalog.replaceLeagues(sportId, load.leagues);
    for (const matchup of load.matchups) {
      let held = this.held.get(matchup.id);
      if (!held) {
        held = this.held.add(matchup.id, sportId);
        this.passOf(pass, held).added = true;
      } else {
        this.held.moveSport(held, sportId);
      }
      held.seenGen = gen;
      const wasSeedOnly = held.matchup === undefined;
      if (held.matchup === undefined || !sameMatchup(held.matchup, matchup)) {
        held.matchup = matchup;
        const p = this.passOf(pass, held);
        p.fieldsDirty = true;
        for (const market of held.markets.values()) p.dirty.add(market);
      } else if (renamedLeagues.has(matchup.league_id)) {
        this.passOf(pass, held).fieldsDirty = true;
      }
      if (wasSeedOnly) this.adoptPending(sportId, held, pass);
    }
    for (const held of [...this.held.ofSport(sportId)]) {
      if (held.seenGen !== gen) this.removeMatch(pass, held);
    }
  }

  private adoptPending(sportId: number, held: HeldMatch, pass: BookPass): void {
    const waiting = this.pending.take(sportId, held.id);
    if (!waiting) return;
    for (const wire of waiting) this.upsertMarket(sportId, wire, pass);
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
        this.upsertMarket(sportId, wire, pass);
        continue;
      }
      const guess = held.listed[held.readAt++];
      const market =
        guess !== undefined && !guess.removed && guess.bookKey === wire.key
          ? this.refreshMarket(guess, wire, pass)
          : this.upsertMarket(sportId, wire, pass);
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
          if (market.seenGen !== gen) this.removeMarket(pass, market);
        }
      }
      if (held.seeded.size > 0 && held.matchup !== undefined) this.dropUnlistedSeeds(held, pass);
    }
  }

  /** Seeded markets the book no longer lists were withdrawn while this process was down. */
  private dropUnlistedSeeds(held: HeldMatch, pass: BookPass): void {
    const listed = new Set<string>();
    for (const market of held.markets.values()) listed.add(marketKeyOf(market.wire));
    const p = this.passOf(pass, held);
    for (const key of [...held.seeded.keys()]) {
      if (listed.has(key)) continue;
      held.seeded.delete(key);
      p.removedKeys.add(key);
    }
  }

  private upsertMarket(sportId: number, wire: UpstreamMarket, pass: BookPass): HeldMarket | undefined {
    const held = this.held.get(wire.matchup_id);
    if (held?.matchup === undefined) {
      this.pending.hold(sportId, wire);
      return undefined;
    }
    const market = held.markets.get(wire.key);
    if (market) return this.refreshMarket(market, wire, pass);
    const added = newHeldMarket(held, wire);
    held.markets.set(wire.key, added);
    this.markDirty(pass, added);
    return added;
  }

  /** Diff by the book's version: an unchanged version is not resolved again. */
  private refreshMarket(market: HeldMarket, wire: UpstreamMarket, pass: BookPass): HeldMarket {
    if (market.bookVersion !== wire.version) {
      market.wire = wire;
      market.bookVersion = wire.version;
      this.markDirty(pass, market);
    }
    return market;
  }

  private removeMarket(pass: BookPass, market: HeldMarket): void {
    const held = market.match;
    held.markets.delete(market.bookKey);
    market.removed = true;
    this.cutoffs.forget(market);
    const p = this.passOf(pass, held);
    p.dirty.delete(market);
    if (market.published && held.byKey.get(market.published.marketKey) === market) {
      held.byKey.delete(market.published.marketKey);
      p.removedKeys.add(market.published.marketKey);
    }
  }

  private removeMatch(pass: BookPass, held: HeldMatch): void {
    const p = this.passOf(pass, held);
    for (const market of held.markets.values()) this.removeMarket(pass, market);
    for (const key of held.seeded.keys()) p.removedKeys.add(key);
    held.seeded.clear();
    p.removed = true;
    this.held.remove(held);
  }

  /** The catalog has already forgotten the sport's names; its matches and waiting markets go here. */
  private dropSport(sportId: number, pass: BookPass): void {
    for (const held of [...this.held.ofSport(sportId)]) this.removeMatch(pass, held);
    this.held.dropSport(sportId);
    this.pending.dropSport(sportId);
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
