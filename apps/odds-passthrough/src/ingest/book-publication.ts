import { type CatalogMessage, type SportLeagues, updateFrame, updateFrameText } from '../book/book-messages';
import type { MatchFrame } from './book-change-publisher';
import type { BookWrite, StoredMarket, StoredMatch } from '../book/book.repository';
import type { BookDiff, IngestBook } from '../book/domain';
import { groupByMarket, type Selection } from '../book/domain/selection';

/** NATS payloads of one diff, in the order they must go out. */
export interface BookPublication {
  /** Catalog messages first, so replicas know a match before its first frame and its removal before its last. */
  readonly catalog: readonly CatalogMessage[];
  readonly frames: readonly MatchFrame[];
  readonly write: BookWrite;
  /** Matches whose change is told by the catalog alone, with no frame. */
  readonly catalogOnly: readonly number[];
  /** Matches this publication removes, or removes markets of. */
  readonly withRemovals: readonly number[];
}

/** Most matches per catalog message, well under NATS's default 1 MB payload limit. */
const CATALOG_CHUNK = 500;

/**
 * Turns what one poll changed into the rows to persist and the messages to
 * publish. Pure and proportional to the diff: each frame is serialised once.
 */
export function buildPublication(book: IngestBook, diff: BookDiff): BookPublication | undefined {
  const empty =
    diff.changes.length === 0 &&
    diff.matches.length === 0 &&
    diff.removedMatches.length === 0 &&
    !diff.sportsChanged &&
    diff.leaguesChanged.length === 0;
  if (empty) return undefined;

  const sports = diff.sportsChanged ? book.sports() : undefined;
  const leagues: SportLeagues[] = diff.leaguesChanged.map((sportId) => ({
    sport_id: sportId,
    leagues: book.leagues(sportId),
  }));
  const removedMatches = diff.removedMatches.map((match) => match.id);
  const removedSet = new Set(removedMatches);

  // A match the diff announced is stored whole; one whose prices alone moved, by its `ts`.
  const matchRows = new Map<number, StoredMatch>();
  for (const info of diff.matches) matchRows.set(info.id, { info, ts: 0 });
  const matchTimes = new Map<number, number>();
  const markets: StoredMarket[] = [];
  const removedMarkets: { matchId: number; marketKey: string }[] = [];
  const frames: MatchFrame[] = [];
  const withRemovals: number[] = [];
  for (const change of diff.changes) {
    if (removedSet.has(change.matchId) || change.removedMarketKeys.length > 0)
      withRemovals.push(change.matchId);
    const update = updateFrame(
      change.matchId,
      change.sportId,
      change.ts,
      change.selections,
      change.removedMarketKeys,
    );
    // Each market's selections are serialised once, for the frame and for its row alike.
    const runs = marketRuns(change.selections);
    const frame = runs
      ? updateFrameText(
          change.matchId,
          change.sportId,
          change.ts,
          selectionsJsonOf(runs),
          change.removedMarketKeys,
        )
      : JSON.stringify(update);
    frames.push({ sportId: change.sportId, matchId: change.matchId, frame, update });
    if (removedSet.has(change.matchId)) continue;
    const announced = matchRows.get(change.matchId);
    if (announced) matchRows.set(change.matchId, { info: announced.info, ts: change.ts });
    else if (book.match(change.matchId)) matchTimes.set(change.matchId, change.ts);
    for (const run of runs ?? jsonOfGroups(change.selections)) {
      markets.push({
        matchId: change.matchId,
        marketKey: run.key,
        version: run.selections[0].version,
        selections: run.selections,
        selectionsJson: run.json,
      });
    }
    for (const marketKey of change.removedMarketKeys)
      removedMarkets.push({ matchId: change.matchId, marketKey });
  }

  const catalog: CatalogMessage[] = [];
  if (sports || leagues.length > 0 || removedMatches.length > 0) {
    catalog.push({
      ...(sports ? { sports } : {}),
      ...(leagues.length > 0 ? { leagues } : {}),
      ...(removedMatches.length > 0 ? { removed_matches: removedMatches } : {}),
    });
  }
  const changedMatches = diff.matches;
  for (let start = 0; start < changedMatches.length; start += CATALOG_CHUNK) {
    catalog.push({ matches: changedMatches.slice(start, start + CATALOG_CHUNK) });
  }

  const framed = new Set(frames.map((frame) => frame.matchId));
  return {
    catalog,
    frames,
    catalogOnly: changedMatches.filter((match) => !framed.has(match.id)).map((match) => match.id),
    withRemovals,
    write: {
      sports,
      leagues,
      matches: [...matchRows.values()],
      matchTimes: Array.from(matchTimes, ([matchId, ts]) => ({ matchId, ts })),
      removedMatches,
      markets,
      removedMarkets,
    },
  };
}

interface MarketRun {
  readonly key: string;
  readonly selections: Selection[];
  /** `JSON.stringify(selections)`. */
  readonly json: string;
}

/**
 * The selections cut into one run per market, each serialised; undefined
 * when a market's selections are not side by side (the frame's order could
 * not be rebuilt from the runs). The ingest lists each market's selections
 * together, so this is the rule, not the exception.
 */
function marketRuns(selections: readonly Selection[]): MarketRun[] | undefined {
  const runs: MarketRun[] = [];
  const seen = new Set<string>();
  let current: Selection[] = [];
  let key: string | undefined;
  const close = () => {
    if (key !== undefined) runs.push({ key, selections: current, json: JSON.stringify(current) });
  };
  for (const selection of selections) {
    if (selection.market_key !== key) {
      if (seen.has(selection.market_key)) return undefined;
      close();
      key = selection.market_key;
      seen.add(key);
      current = [];
    }
    current.push(selection);
  }
  close();
  return runs;
}

/**
 * The runs' selections as one JSON array. A poll that moves a price changes
 * one market of a match: its run's text is that array already.
 */
function selectionsJsonOf(runs: readonly MarketRun[]): string {
  if (runs.length === 1) return runs[0].json;
  return `[${runs.map((run) => run.json.slice(1, -1)).join(',')}]`;
}

function jsonOfGroups(selections: readonly Selection[]): MarketRun[] {
  return [...groupByMarket(selections)].map(([key, group]) => ({
    key,
    selections: group,
    json: JSON.stringify(group),
  }));
}
