import type { BookSnapshotFrame, BookUpdateFrame, Selection } from './odds-types';

/** One match's prices as a client holds them, keyed by market. */
export interface MatchBook {
  readonly matchId: number;
  readonly sportId: number;
  /** `ts` of the newest frame applied. */
  readonly ts: number;
  /** market_key → the market's selections, all with one version. */
  readonly markets: ReadonlyMap<string, readonly Selection[]>;
}

/** What applying a frame changed, for a display that flashes prices. */
export interface BookChange {
  readonly book: MatchBook;
  /** Markets whose selections were replaced (new version or first seen). */
  readonly changed: readonly string[];
  /** Markets withdrawn by the frame. */
  readonly removed: readonly string[];
  /** Markets of the frame ignored because their version was not greater. */
  readonly ignored: readonly string[];
}

function byMarket(selections: readonly Selection[]): Map<string, Selection[]> {
  const markets = new Map<string, Selection[]>();
  for (const selection of selections) {
    const list = markets.get(selection.market_key);
    if (list) list.push(selection);
    else markets.set(selection.market_key, [selection]);
  }
  return markets;
}

function versionOf(selections: readonly Selection[] | undefined): number | undefined {
  return selections === undefined || selections.length === 0 ? undefined : selections[0].version;
}

/**
 * Applies a snapshot or update to the held book of its match (undefined when
 * none is held) and returns the new book; the old one is not modified.
 *
 * - A snapshot is the full image: markets it lacks are gone. A market it
 *   carries at a version not greater than the one held keeps the held one.
 * - An update replaces each market it carries whose version is greater than
 *   the held one (the dedupe rule per market_key), then deletes the markets
 *   in `removed_market_keys` unless the same frame re-adds them.
 */
export function applyBookFrame(
  held: MatchBook | undefined,
  frame: BookSnapshotFrame | BookUpdateFrame,
): BookChange {
  const incoming = byMarket(frame.selections);
  const markets = new Map<string, readonly Selection[]>(
    frame.type === 'snapshot' ? [] : (held?.markets ?? []),
  );
  const changed: string[] = [];
  const ignored: string[] = [];
  const removed: string[] = [];

  if (frame.type === 'snapshot' && held) {
    for (const key of held.markets.keys()) if (!incoming.has(key)) removed.push(key);
  }
  for (const [key, selections] of incoming) {
    const heldVersion = versionOf(held?.markets.get(key));
    if (heldVersion !== undefined && selections[0].version <= heldVersion) {
      ignored.push(key);
      markets.set(key, held!.markets.get(key)!);
      continue;
    }
    markets.set(key, selections);
    changed.push(key);
  }
  if (frame.type === 'update') {
    for (const key of frame.removed_market_keys ?? []) {
      if (incoming.has(key) || !markets.has(key)) continue;
      markets.delete(key);
      removed.push(key);
    }
  }
  const ts = held && held.ts > frame.ts ? held.ts : frame.ts;
  return {
    book: { matchId: frame.match_id, sportId: frame.sport_id, ts, markets },
    changed,
    removed,
    ignored,
  };
}

/** Every selection of a book, market by market. */
export function selectionsOf(book: MatchBook): Selection[] {
  return [...book.markets.values()].flat();
}
