import type { ChangePosition } from '@app/messaging';
import type { CatalogMessage, FeedHealthMessage, LeagueInfo, MatchInfo, SportInfo } from './book-messages';
import {
  type MatchUpdate,
  parseUpdateFrame,
  positionedUpdateText,
  serializeUpdateFrame,
  UNLOGGED,
} from './book-messages';
import type { StoredBook } from './book.repository';
import { drain, type Parts } from '../common/work-in-parts';
import { isFeedHealthy } from './domain/feed-health';
import type { BookChange, MatchOdds } from './domain/match-odds';
import { groupByMarket, type Selection } from './domain/selection';
import { SharedStrings } from './shared-strings';

/** Markets loaded (or compared) per part of a load: a few milliseconds of work. */
const MARKETS_PER_PART = 5000;

/**
 * One market's selections, never empty: their version and cutoff are the
 * market's, read off the first. No record around them, since a book of
 * 100,000 markets would hold as many.
 */
type MarketSelections = readonly Selection[];

interface MatchEntry {
  sportId: number;
  ts: number;
  info?: MatchInfo;
  readonly markets: Map<string, MarketSelections>;
  /** The keys of `markets` in market_key order; undefined since a key came or went, until the next read. */
  keyOrder?: readonly string[];
  /** A frame (or a load) has been applied: the next frame is not the match's first. */
  announced: boolean;
  /** The catalog withdrew it; the next frame is its last. */
  removing: boolean;
  /** Its newest change's place in the book's change log; null while it has none. */
  position: ChangePosition | null;
}

export interface AppliedChange {
  readonly change: BookChange;
  /** The `update` frame for exactly `change`, with its position, serialised once. */
  readonly frame: string;
  readonly position: ChangePosition;
}

/**
 * Api side: one book's in-memory copy on an api replica, built from the
 * frames and catalog messages the ingest published and from what
 * BookRepository loads. Unlike the ingest's IngestBook it never reads the
 * sportsbook nor issues versions: it applies finished changes with the dedupe
 * rule (a market's selections are replaced only by a greater version) and
 * answers reads with statuses evaluated at the moment of the read.
 * ReplicaBookService owns one per book and does the I/O; this does none, so
 * the ordering rules are tested directly.
 */
export class ReplicaBook {
  private sportList: readonly SportInfo[] = [];
  private readonly leagueMap = new Map<number, LeagueInfo>();
  private matchMap = new Map<number, MatchEntry>();
  private health?: FeedHealthMessage;
  private newest = 0;
  private readonly strings = new SharedStrings();

  constructor(readonly book: string) {}

  /** The newest change-log position this replica has applied (0 before any). */
  get newestSeq(): number {
    return this.newest;
  }

  /** Where the match's state stands in the change log; unlogged states count as the log's start. */
  position(matchId: number): ChangePosition | undefined {
    const entry = this.matchMap.get(matchId);
    return entry && !entry.removing ? (entry.position ?? UNLOGGED) : undefined;
  }

  sports(): readonly SportInfo[] {
    return this.sportList;
  }

  leagues(): LeagueInfo[] {
    return [...this.leagueMap.values()].sort((a, b) => a.id - b.id);
  }

  /** Listed matches, by start time then id. */
  matches(): MatchInfo[] {
    const listed: MatchInfo[] = [];
    for (const entry of this.matchMap.values()) if (entry.info && !entry.removing) listed.push(entry.info);
    return listed.sort((a, b) =>
      a.start_time < b.start_time ? -1 : a.start_time > b.start_time ? 1 : a.id - b.id,
    );
  }

  matchSport(matchId: number): number | undefined {
    const entry = this.matchMap.get(matchId);
    return entry && !entry.removing ? entry.sportId : undefined;
  }

  matchIds(sportId?: number): number[] {
    const ids: number[] = [];
    for (const [id, entry] of this.matchMap) {
      if (!entry.removing && (sportId === undefined || entry.sportId === sportId)) ids.push(id);
    }
    return ids;
  }

  feedHealthy(now: number): boolean {
    return isFeedHealthy(this.health, now);
  }

  applyHealth(health: FeedHealthMessage): void {
    const held = this.health?.last_success_at ?? null;
    // A late duplicate must not make the feed look older than it is.
    if (held !== null && health.last_success_at !== null && health.last_success_at < held) return;
    this.health = health;
  }

  /**
   * The match with every selection whose cutoff has passed reported locked.
   * Markets come in market_key order: the order in which a replica came to
   * hold them depends on whether it loaded them or heard them one by one,
   * and every replica must answer the same state with the same bytes.
   */
  snapshot(matchId: number, now: number): MatchOdds | undefined {
    const entry = this.matchMap.get(matchId);
    if (!entry || entry.removing) return undefined;
    entry.keyOrder ??= [...entry.markets.keys()].sort(byCodeUnits);
    const selections: Selection[] = [];
    for (const key of entry.keyOrder) {
      const market = entry.markets.get(key) as MarketSelections;
      if (now >= cutoffMsOf(market[0].cutoff_at)) {
        for (const selection of market) {
          selections.push(selection.status === 'locked' ? selection : { ...selection, status: 'locked' });
        }
      } else {
        selections.push(...market);
      }
    }
    return { match_id: matchId, sport_id: entry.sportId, ts: entry.ts, selections };
  }

  applyCatalog(message: CatalogMessage): void {
    if (message.sports) this.sportList = [...message.sports].sort((a, b) => a.id - b.id);
    for (const { sport_id, leagues } of message.leagues ?? []) {
      for (const [id, league] of this.leagueMap) if (league.sport_id === sport_id) this.leagueMap.delete(id);
      for (const league of leagues) this.leagueMap.set(league.id, league);
    }
    for (const info of message.matches ?? []) {
      const entry = this.entry(info.id, info.sport_id);
      entry.info = info;
      entry.sportId = info.sport_id;
      entry.removing = false;
    }
    for (const id of message.removed_matches ?? []) {
      const entry = this.matchMap.get(id);
      if (entry) entry.removing = true;
    }
  }

  /**
   * Applies one `update` frame from the ingest, at `position` in the book's
   * change log; `parsed`, when given, is `text` as an object (this process
   * published it) and is not parsed again. Returns what a subscriber must
   * see, with the original bytes when all of it applied, or undefined when
   * it held nothing new (a replay of what the replica already had, or a
   * position it has passed).
   */
  applyFrame(text: string, position: ChangePosition | null, parsed?: MatchUpdate): AppliedChange | undefined {
    const frame = parsed ?? parseUpdateFrame(text);
    if (!frame) return undefined;
    // A frame without selections for an unknown match is the tail of a removal already applied.
    if (frame.selections.length === 0 && !this.matchMap.has(frame.match_id)) return undefined;
    const known = this.matchMap.get(frame.match_id)?.position;
    if (position && known && position.seq <= known.seq) return undefined;
    const entry = this.entry(frame.match_id, frame.sport_id);
    if (position) {
      entry.position = position;
      this.newest = Math.max(this.newest, position.seq);
    }
    const matchAdded = !entry.announced;
    const matchRemoved = entry.removing;
    entry.announced = true;
    entry.sportId = frame.sport_id;

    const byMarket = groupByMarket(frame.selections);
    const applied: Selection[] = [];
    let skipped = false;
    for (const [key, selections] of byMarket) {
      const held = entry.markets.get(key);
      const version = selections[0].version;
      if (held && held[0].version >= version) {
        skipped = true;
        continue;
      }
      if (!held) entry.keyOrder = undefined;
      // A copy of exactly its length: a frame's groups grow by push, with room for 17 selections,
      // which for a book of 100,000 two-way markets was 13.6 MB of empty slots. Stored rows are
      // read into arrays of their length already.
      entry.markets.set(key, this.strings.shareMarket(key, selections.slice()));
      applied.push(...selections);
    }
    const removed: string[] = [];
    for (const key of frame.removed_market_keys) {
      const deleted = entry.markets.delete(key);
      if (deleted) entry.keyOrder = undefined;
      if (deleted || matchRemoved) removed.push(key);
      else skipped = true;
    }
    const tsAdvanced = frame.ts > entry.ts;
    if (tsAdvanced) entry.ts = frame.ts;
    if (matchRemoved) this.matchMap.delete(frame.match_id);

    if (!matchAdded && !matchRemoved && applied.length === 0 && removed.length === 0 && !tsAdvanced) {
      return undefined;
    }
    const change: BookChange = {
      book: this.book,
      matchId: frame.match_id,
      sportId: frame.sport_id,
      ts: entry.ts,
      selections: applied,
      removedMarketKeys: removed,
      matchRemoved,
      matchAdded,
    };
    const exact = !skipped && entry.ts === frame.ts;
    const at = entry.position ?? UNLOGGED;
    return {
      change,
      position: at,
      frame: exact
        ? positionedUpdateText(text, at)
        : serializeUpdateFrame(frame.match_id, frame.sport_id, entry.ts, applied, removed, at),
    };
  }

  /**
   * Replaces the whole state with `stored`. With `diff`, returns the changes a
   * subscriber needs to go from the held state to the stored one (after a lost
   * NATS link); the first load passes false because nobody holds anything yet.
   */
  load(stored: StoredBook, diff: boolean): AppliedChange[] {
    return drain(this.loading(stored, diff));
  }

  /**
   * `load` in parts: the new state is built beside the held one, which keeps
   * answering reads between parts, and replaces it in one step at the end.
   * Nothing else may be applied until it has ended.
   */
  *loading(stored: StoredBook, diff: boolean): Parts<AppliedChange[]> {
    const previous = this.matchMap;
    const next = new Map<number, MatchEntry>();
    let newest = this.newest;
    for (const { info, ts, position, removed } of stored.matches) {
      if (removed) continue;
      const held = previous.get(info.id)?.position;
      // A position heard live may be ahead of the stored one, written after the publication.
      const newer = held && (!position || held.seq > position.seq) ? held : (position ?? null);
      next.set(info.id, {
        sportId: info.sport_id,
        ts,
        info,
        markets: new Map(),
        announced: true,
        removing: false,
        position: newer,
      });
      if (newer) newest = Math.max(newest, newer.seq);
    }
    yield;
    let inPart = 0;
    for (const market of stored.markets) {
      if (++inPart === MARKETS_PER_PART) {
        inPart = 0;
        yield;
      }
      const entry = next.get(market.matchId);
      if (entry && market.selections.length > 0)
        entry.markets.set(market.marketKey, this.strings.shareMarket(market.marketKey, market.selections));
    }
    const changes = diff ? yield* this.diffFrom(previous, next) : [];
    this.sportList = [...stored.sports].sort((a, b) => a.id - b.id);
    this.leagueMap.clear();
    for (const league of stored.leagues) this.leagueMap.set(league.id, league);
    if (stored.health) this.applyHealth(stored.health);
    this.matchMap = next;
    this.newest = newest;
    return changes;
  }

  private *diffFrom(
    previous: ReadonlyMap<number, MatchEntry>,
    next: ReadonlyMap<number, MatchEntry>,
  ): Parts<AppliedChange[]> {
    const changes: AppliedChange[] = [];
    let inPart = 0;
    for (const [id, entry] of next) {
      inPart += entry.markets.size;
      if (inPart >= MARKETS_PER_PART) {
        inPart = 0;
        yield;
      }
      const before = previous.get(id);
      const selections: Selection[] = [];
      const removed: string[] = [];
      for (const [key, market] of entry.markets) {
        const held = before?.markets.get(key);
        if (!held || held[0].version < market[0].version) selections.push(...market);
      }
      for (const key of before?.markets.keys() ?? []) if (!entry.markets.has(key)) removed.push(key);
      if (before && selections.length === 0 && removed.length === 0 && before.ts === entry.ts) continue;
      changes.push(
        this.change(id, entry.sportId, entry.ts, selections, removed, false, !before, entry.position),
      );
    }
    for (const [id, before] of previous) {
      if (next.has(id)) continue;
      changes.push(
        this.change(
          id,
          before.sportId,
          before.ts,
          [],
          [...before.markets.keys()],
          true,
          false,
          before.position,
        ),
      );
    }
    return changes;
  }

  private change(
    matchId: number,
    sportId: number,
    ts: number,
    selections: Selection[],
    removed: string[],
    matchRemoved: boolean,
    matchAdded: boolean,
    position: ChangePosition | null,
  ): AppliedChange {
    const at = position ?? UNLOGGED;
    return {
      position: at,
      change: {
        book: this.book,
        matchId,
        sportId,
        ts,
        selections,
        removedMarketKeys: removed,
        matchRemoved,
        matchAdded,
      },
      frame: serializeUpdateFrame(matchId, sportId, ts, selections, removed, at),
    };
  }

  private entry(matchId: number, sportId: number): MatchEntry {
    let entry = this.matchMap.get(matchId);
    if (!entry) {
      entry = { sportId, ts: 0, markets: new Map(), announced: false, removing: false, position: null };
      this.matchMap.set(matchId, entry);
    }
    return entry;
  }
}

/** Plain code-unit order, the same on every process (no locale, unlike PostgreSQL's text order). */
function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

let lastCutoff = { at: '', ms: NaN };

/**
 * A cutoff's epoch ms. A match's markets mostly share one cutoff (the pool
 * shares its string), so the last one parsed is kept.
 */
function cutoffMsOf(cutoffAt: string): number {
  if (cutoffAt !== lastCutoff.at) lastCutoff = { at: cutoffAt, ms: Date.parse(cutoffAt) };
  return lastCutoff.ms;
}
