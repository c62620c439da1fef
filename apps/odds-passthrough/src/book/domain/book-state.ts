import type {
  UpstreamLeague,
  UpstreamMarket,
  UpstreamMatchup,
  UpstreamPeriodLabel,
  UpstreamSport,
} from '../../upstream';
import type {
  BookDiff,
  BookLeague,
  BookSport,
  FullLoad,
  MarketsDelta,
  MatchupsLoad,
  SeedMatch,
} from './book-diff';
import type { BookChange, MatchOdds } from './match-odds';
import { CutoffQueue } from './cutoff-queue';
import {
  type HeldMarket,
  type HeldMatch,
  type MatchPass,
  sameAsSeed,
  sameMatchup,
  toSelections,
} from './held-book';
import { marketKeyOf } from './market-key';
import { resolveMarket, sameResolved } from './market-resolution';
import { matchFields, sameMatchFields, type PublicMatch, type PublicMatchFields } from './public-match';
import type { Selection } from './selection';
import { selectionsAt } from './selection-status';
import { nextVersion } from './version';

/**
 * The current state of one sportsbook, as the ingest sees it, and the diff engine that
 * turns each poll into per-match changes. Pure: no I/O, time comes in as `now` (epoch ms).
 *
 * Work is proportional to what changed: markets are indexed by (matchup, book key) and a
 * market whose book version is unchanged is not resolved again. Every change a client can
 * see gets a version greater than the last one issued for its market_key (see `nextVersion`).
 */
export class BookState {
  private readonly sportNames = new Map<number, string>();
  private readonly labels = new Map<number, Map<number, string>>();
  private readonly leagueNames = new Map<number, Map<number, string>>();
  private readonly heldMatches = new Map<number, HeldMatch>();
  private readonly sportMatches = new Map<number, Set<HeldMatch>>();
  /** Markets listed for matchups not known yet, by sport then matchup then book key. */
  private readonly pending = new Map<number, Map<number, Map<string, UpstreamMarket>>>();
  private readonly cutoffs = new CutoffQueue<HeldMarket>();
  /** Sports whose league list changed since the last commit. */
  private readonly leaguesChanged = new Set<number>();
  /** Marks what one load listed, so whatever it did not list can be withdrawn. */
  private generation = 0;

  constructor(
    readonly book: string,
    seed?: readonly SeedMatch[],
  ) {
    if (seed) this.seed(seed);
  }

  /** Restores persisted matches and versions; call before the first load. */
  seed(matches: readonly SeedMatch[]): void {
    for (const s of matches) {
      const held = this.heldMatches.get(s.match.id) ?? this.newMatch(s.match.id, s.match.sport_id);
      held.published = s.match;
      held.ts = Math.max(held.ts, s.ts);
      for (const m of s.markets) {
        held.versions.set(m.marketKey, Math.max(held.versions.get(m.marketKey) ?? 0, m.version));
        if (!held.byKey.has(m.marketKey)) held.seeded.set(m.marketKey, m);
      }
    }
  }

  // ---- reads ----------------------------------------------------------------

  sports(): BookSport[] {
    return [...this.sportNames].map(([id, name]) => ({ id, name })).sort((a, b) => a.id - b.id);
  }

  leagues(sportId?: number): BookLeague[] {
    const out: BookLeague[] = [];
    for (const [sport, names] of this.leagueNames) {
      if (sportId !== undefined && sport !== sportId) continue;
      for (const [id, name] of names) out.push({ id, name, sport_id: sport });
    }
    return out.sort((a, b) => a.id - b.id);
  }

  hasLabels(sportId: number): boolean {
    return this.labels.has(sportId);
  }

  /** Matches the book currently lists, sorted by id. */
  matches(sportId?: number): PublicMatch[] {
    const out: PublicMatch[] = [];
    for (const held of this.heldMatches.values()) {
      if (held.matchup === undefined || held.published === undefined) continue;
      if (sportId !== undefined && held.sportId !== sportId) continue;
      out.push(held.published);
    }
    return out.sort((a, b) => a.id - b.id);
  }

  match(matchId: number): PublicMatch | undefined {
    const held = this.heldMatches.get(matchId);
    return held?.matchup === undefined ? undefined : held.published;
  }

  /** A match's full current state with every status evaluated at `now`. */
  matchOdds(matchId: number, now: number): MatchOdds | undefined {
    const held = this.heldMatches.get(matchId);
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
    for (const held of this.heldMatches.values()) n += held.byKey.size;
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
    const listed = new Map(sports.map((s) => [s.id, s.name]));
    let changed = listed.size !== this.sportNames.size;
    for (const [id, name] of listed) if (this.sportNames.get(id) !== name) changed = true;
    for (const id of [...this.sportNames.keys()]) {
      if (listed.has(id)) continue;
      this.dropSport(id, pass);
    }
    this.sportNames.clear();
    for (const [id, name] of listed) this.sportNames.set(id, name);
    return this.commit(pass, now, changed);
  }

  /**
   * A sport's period label table. An empty table means the book is still cold and is
   * ignored. A new or different table renames the sport's markets, with greater versions.
   */
  applyLabels(sportId: number, labels: readonly UpstreamPeriodLabel[], now: number): BookDiff {
    const pass = this.beginPass();
    if (labels.length > 0) {
      const table = new Map(labels.map((l) => [l.number, l.description]));
      const held = this.labels.get(sportId);
      const same =
        held !== undefined && held.size === table.size && [...table].every(([n, d]) => held.get(n) === d);
      if (!same) {
        this.labels.set(sportId, table);
        for (const match of this.sportMatches.get(sportId) ?? []) {
          for (const market of match.markets.values()) this.markDirty(pass, market);
        }
      }
    }
    return this.commit(pass, now);
  }

  /** A full load: leagues, matchups and markets of one sport; whatever is not listed is withdrawn. */
  applyFull(sportId: number, load: FullLoad, now: number): BookDiff {
    const pass = this.beginPass();
    this.loadMatchups(sportId, load, pass);
    this.loadMarkets(sportId, load.markets, pass);
    return this.commit(pass, now);
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
      const market = this.heldMatches.get(w.matchup_id)?.markets.get(w.key);
      if (market) this.removeMarket(pass, market);
      this.pending.get(sportId)?.get(w.matchup_id)?.delete(w.key);
    }
    for (const wire of delta.markets) this.upsertMarket(sportId, wire, pass);
    return this.commit(pass, now);
  }

  /** Publishes the locks of every market whose cutoff is at or before `now`. */
  tick(now: number): BookDiff {
    const pass = this.beginPass();
    for (const market of this.cutoffs.takeDue(now)) {
      market.queuedAt = undefined;
      if (!market.removed) this.markDirty(pass, market);
    }
    return this.commit(pass, now);
  }

  // ---- internals ------------------------------------------------------------

  private beginPass(): Map<HeldMatch, MatchPass> {
    this.generation++;
    return new Map();
  }

  private passOf(pass: Map<HeldMatch, MatchPass>, match: HeldMatch): MatchPass {
    let p = pass.get(match);
    if (!p) {
      p = {
        added: false,
        removed: false,
        fieldsDirty: false,
        dirty: new Set(),
        removedKeys: new Set(),
        selections: [],
      };
      pass.set(match, p);
    }
    return p;
  }

  private markDirty(pass: Map<HeldMatch, MatchPass>, market: HeldMarket): void {
    this.passOf(pass, market.match).dirty.add(market);
  }

  private newMatch(id: number, sportId: number): HeldMatch {
    const held: HeldMatch = {
      id,
      sportId,
      matchup: undefined,
      published: undefined,
      ts: 0,
      markets: new Map(),
      byKey: new Map(),
      versions: new Map(),
      seeded: new Map(),
      seenGen: 0,
      listed: [],
      listingGen: 0,
      readAt: 0,
      writeAt: 0,
    };
    this.heldMatches.set(id, held);
    let set = this.sportMatches.get(sportId);
    if (!set) {
      set = new Set();
      this.sportMatches.set(sportId, set);
    }
    set.add(held);
    return held;
  }

  private moveSport(held: HeldMatch, sportId: number): void {
    if (held.sportId === sportId) return;
    this.sportMatches.get(held.sportId)?.delete(held);
    held.sportId = sportId;
    let set = this.sportMatches.get(sportId);
    if (!set) {
      set = new Set();
      this.sportMatches.set(sportId, set);
    }
    set.add(held);
  }

  private loadLeagues(sportId: number, leagues: readonly UpstreamLeague[]): Set<number> {
    const before = this.leagueNames.get(sportId);
    const after = new Map(leagues.map((l) => [l.id, l.name]));
    const changed = new Set<number>();
    for (const [id, name] of after) if (before?.get(id) !== name) changed.add(id);
    if (before) for (const id of before.keys()) if (!after.has(id)) changed.add(id);
    this.leagueNames.set(sportId, after);
    return changed;
  }

  private loadMatchups(sportId: number, load: MatchupsLoad, pass: Map<HeldMatch, MatchPass>): void {
    const gen = this.generation;
    const renamedLeagues = this.loadLeagues(sportId, load.leagues);
    if (renamedLeagues.size > 0) this.leaguesChanged.add(sportId);
    for (const matchup of load.matchups) {
      let held = this.heldMatches.get(matchup.id);
      if (!held) {
        held = this.newMatch(matchup.id, sportId);
        this.passOf(pass, held).added = true;
      } else {
        this.moveSport(held, sportId);
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
    for (const held of [...(this.sportMatches.get(sportId) ?? [])]) {
      if (held.seenGen !== gen) this.removeMatch(pass, held);
    }
  }

  private adoptPending(sportId: number, held: HeldMatch, pass: Map<HeldMatch, MatchPass>): void {
    const waiting = this.pending.get(sportId)?.get(held.id);
    if (!waiting) return;
    this.pending.get(sportId)?.delete(held.id);
    for (const wire of waiting.values()) this.upsertMarket(sportId, wire, pass);
  }

  /** The hot path of a full poll: most markets are matched by position and skipped by version. */
  private loadMarkets(
    sportId: number,
    markets: readonly UpstreamMarket[],
    pass: Map<HeldMatch, MatchPass>,
  ): void {
    const gen = this.generation;
    this.pending.delete(sportId);
    let held: HeldMatch | undefined;
    for (const wire of markets) {
      if (held?.id !== wire.matchup_id) {
        held = this.heldMatches.get(wire.matchup_id);
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
    for (const held of this.sportMatches.get(sportId) ?? []) {
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
  private dropUnlistedSeeds(held: HeldMatch, pass: Map<HeldMatch, MatchPass>): void {
    const listed = new Set<string>();
    for (const market of held.markets.values()) listed.add(marketKeyOf(market.wire));
    const p = this.passOf(pass, held);
    for (const key of [...held.seeded.keys()]) {
      if (listed.has(key)) continue;
      held.seeded.delete(key);
      p.removedKeys.add(key);
    }
  }

  private upsertMarket(
    sportId: number,
    wire: UpstreamMarket,
    pass: Map<HeldMatch, MatchPass>,
  ): HeldMarket | undefined {
    const held = this.heldMatches.get(wire.matchup_id);
    if (held?.matchup === undefined) {
      let bySport = this.pending.get(sportId);
      if (!bySport) {
        bySport = new Map();
        this.pending.set(sportId, bySport);
      }
      let byMatchup = bySport.get(wire.matchup_id);
      if (!byMatchup) {
        byMatchup = new Map();
        bySport.set(wire.matchup_id, byMatchup);
      }
      byMatchup.set(wire.key, wire);
      return undefined;
    }
    const market = held.markets.get(wire.key);
    if (market) return this.refreshMarket(market, wire, pass);
    const added: HeldMarket = {
      bookKey: wire.key,
      match: held,
      wire,
      bookVersion: wire.version,
      locked: true,
      version: 0,
      selections: [],
      seenGen: 0,
      removed: false,
      published: undefined,
      queuedAt: undefined,
    };
    held.markets.set(wire.key, added);
    this.markDirty(pass, added);
    return added;
  }

  /** Diff by the book's version: an unchanged version is not resolved again. */
  private refreshMarket(
    market: HeldMarket,
    wire: UpstreamMarket,
    pass: Map<HeldMatch, MatchPass>,
  ): HeldMarket {
    if (market.bookVersion !== wire.version) {
      market.wire = wire;
      market.bookVersion = wire.version;
      this.markDirty(pass, market);
    }
    return market;
  }

  private removeMarket(pass: Map<HeldMatch, MatchPass>, market: HeldMarket): void {
    const held = market.match;
    held.markets.delete(market.bookKey);
    market.removed = true;
    this.unqueue(market);
    const p = this.passOf(pass, held);
    p.dirty.delete(market);
    if (market.published && held.byKey.get(market.published.marketKey) === market) {
      held.byKey.delete(market.published.marketKey);
      p.removedKeys.add(market.published.marketKey);
    }
  }

  private removeMatch(pass: Map<HeldMatch, MatchPass>, held: HeldMatch): void {
    const p = this.passOf(pass, held);
    for (const market of held.markets.values()) this.removeMarket(pass, market);
    for (const key of held.seeded.keys()) p.removedKeys.add(key);
    held.seeded.clear();
    p.removed = true;
    this.heldMatches.delete(held.id);
    this.sportMatches.get(held.sportId)?.delete(held);
  }

  private dropSport(sportId: number, pass: Map<HeldMatch, MatchPass>): void {
    for (const held of [...(this.sportMatches.get(sportId) ?? [])]) this.removeMatch(pass, held);
    this.sportMatches.delete(sportId);
    this.pending.delete(sportId);
    this.labels.delete(sportId);
    if (this.leagueNames.delete(sportId)) this.leaguesChanged.add(sportId);
  }

  private unqueue(market: HeldMarket): void {
    if (market.queuedAt === undefined) return;
    this.cutoffs.remove(market.queuedAt, market);
    market.queuedAt = undefined;
  }

  /** Resolves every dirty market, issues versions for what clients will see differently. */
  private commit(pass: Map<HeldMatch, MatchPass>, now: number, sportsChanged = false): BookDiff {
    const diff: BookDiff = {
      changes: [],
      matches: [],
      removedMatches: [],
      sportsChanged,
      leaguesChanged: [...this.leaguesChanged],
    };
    this.leaguesChanged.clear();
    for (const [held, p] of pass) {
      if (p.removed) {
        if (p.added) continue;
        held.ts = Math.max(held.ts, now);
        diff.removedMatches.push({ id: held.id, sportId: held.sportId });
        diff.changes.push(this.changeOf(held, p, []));
        continue;
      }
      const matchup = held.matchup;
      if (matchup === undefined) continue;
      if (p.fieldsDirty || p.added) this.publishMatch(held, matchup, diff, now);
      for (const market of p.dirty) this.publishMarket(held, market, matchup, p, now);
      if (p.added || p.selections.length > 0 || p.removedKeys.size > 0) {
        held.ts = Math.max(held.ts, now);
        diff.changes.push(this.changeOf(held, p, p.selections));
      }
    }
    return diff;
  }

  private changeOf(held: HeldMatch, p: MatchPass, selections: Selection[]): BookChange {
    return {
      book: this.book,
      matchId: held.id,
      sportId: held.sportId,
      ts: held.ts,
      selections,
      removedMarketKeys: [...p.removedKeys],
      matchRemoved: p.removed,
      matchAdded: p.added,
    };
  }

  private publishMatch(held: HeldMatch, matchup: UpstreamMatchup, diff: BookDiff, now: number): void {
    const fields: PublicMatchFields = matchFields(
      held.sportId,
      matchup,
      this.leagueNames.get(held.sportId)?.get(matchup.league_id),
    );
    if (held.published && sameMatchFields(held.published, fields)) return;
    held.published = { ...fields, version: nextVersion(held.published?.version, now) };
    diff.matches.push(held.published);
  }

  private publishMarket(
    held: HeldMatch,
    market: HeldMarket,
    matchup: UpstreamMatchup,
    p: MatchPass,
    now: number,
  ): void {
    const resolved = resolveMarket(matchup, market.wire, this.labels.get(held.sportId));
    const locked = !resolved.open || now >= resolved.cutoffMs;
    const key = resolved.marketKey;
    const previous = market.published;
    if (previous && previous.marketKey !== key && held.byKey.get(previous.marketKey) === market) {
      held.byKey.delete(previous.marketKey);
      p.removedKeys.add(previous.marketKey);
    }
    let unchanged = false;
    if (previous && previous.marketKey === key) {
      unchanged = market.locked === locked && sameResolved(previous, resolved);
    } else {
      const seed = held.seeded.get(key);
      if (seed) {
        held.seeded.delete(key);
        if (seed.selections && sameAsSeed(resolved, locked, seed.selections)) {
          unchanged = true;
          market.version = seed.version;
          market.selections = seed.selections.slice();
        }
      }
    }
    market.published = resolved;
    market.locked = locked;
    held.byKey.set(key, market);
    const waitFor = locked ? undefined : resolved.cutoffMs;
    if (market.queuedAt !== waitFor) {
      this.unqueue(market);
      if (waitFor !== undefined) {
        market.queuedAt = waitFor;
        this.cutoffs.add(waitFor, market);
      }
    }
    if (unchanged) return;
    market.version = nextVersion(held.versions.get(key), now);
    held.versions.set(key, market.version);
    market.selections = toSelections(resolved, locked, market.version);
    p.removedKeys.delete(key);
    for (const s of market.selections) p.selections.push(s);
  }
}
