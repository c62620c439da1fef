import type { MatchInfo } from './book-messages';
import type { BookWrite, MatchTime, StoredMarket, StoredMatch, StoredSeedMarket } from './book.repository';
import { publicMatch } from './domain/public-match';
import { type Selection, selectionInOrder } from './domain/selection';
import type { StringPool } from './domain/string-pool';

/*
 * BookRepository's SQL, apart from the class: the rows node-postgres returns
 * and how they map to the stored types, and the text of the statements that
 * write them. Plain functions; the repository runs them.
 */

/**
 * Rows per statement, so a full load of a large book never builds one giant
 * query. Rows carrying JSON go as one JSON document (`jsonb_to_recordset`):
 * node-postgres escapes every string of a `text[]` parameter character by
 * character, which cost the ingest about 2.5 times the client CPU.
 */
export const BATCH = 2000;

export interface MatchRow {
  readonly body: MatchInfo;
  readonly ts: string;
  readonly change_seq: string | null;
  readonly prev_change_seq: string | null;
  readonly unpublished: boolean;
  readonly removed: boolean;
}

export interface MarketRow {
  readonly match_id: string;
  readonly market_key: string;
  readonly version: string;
  readonly selections: Selection[];
}

export interface MarketTextRow {
  readonly match_id: string;
  readonly market_key: string;
  readonly version: string;
  readonly selections: string;
}

export function storedMatch(row: MatchRow): StoredMatch {
  return {
    // jsonb keeps an object's keys sorted by length; the objects are rebuilt in their public order.
    info: publicMatch(row.body, row.body.version),
    ts: Number(row.ts),
    position:
      row.change_seq === null
        ? null
        : {
            seq: Number(row.change_seq),
            prevSeq: row.prev_change_seq === null ? null : Number(row.prev_change_seq),
          },
    unpublished: row.unpublished,
    removed: row.removed,
  };
}

export function storedMarket(row: MarketRow, keys: StringPool): StoredMarket {
  return {
    matchId: Number(row.match_id),
    marketKey: keys.share(row.market_key),
    version: Number(row.version),
    selections: row.selections.map(selectionInOrder),
  };
}

export function storedSeedMarket(row: MarketTextRow, keys: StringPool): StoredSeedMarket {
  return {
    matchId: Number(row.match_id),
    marketKey: keys.share(row.market_key),
    version: Number(row.version),
    selectionsText: row.selections,
  };
}

/** Match and market rows only, few enough for one statement of each. */
export function isRowsOnly(change: BookWrite): boolean {
  return (
    !change.sports &&
    change.leagues.length === 0 &&
    change.removedMatches.length === 0 &&
    change.removedMarkets.length === 0 &&
    change.matches.length <= BATCH &&
    change.matchTimes.length <= BATCH &&
    change.markets.length <= BATCH
  );
}

/**
 * Upserts the `odds.matches` rows of the JSON document `rows` (`$1` the
 * book), stored at generation `gen`: both are SQL expressions.
 */
export function upsertMatches(rows: string, gen: string): string {
  return `INSERT INTO odds.matches (book, id, sport_id, body, version, ts, stored_gen)
    SELECT $1, (m.body->>'id')::bigint, (m.body->>'sport_id')::bigint, m.body,
      (m.body->>'version')::bigint, m.ts, ${gen}
    FROM jsonb_to_recordset(${rows}::jsonb) AS m(body jsonb, ts bigint)
    ON CONFLICT (book, id) DO UPDATE SET sport_id = EXCLUDED.sport_id, body = EXCLUDED.body,
      version = EXCLUDED.version, ts = GREATEST(odds.matches.ts, EXCLUDED.ts),
      stored_gen = EXCLUDED.stored_gen, removed = false`;
}

/**
 * Moves the `ts` of stored matches whose body did not change and marks them
 * stored at generation `gen`: `ids` and `tss` are the comma-separated lists
 * of `matchTimeColumns`, all three SQL expressions. A poll that moves prices
 * changes no match's public object, and rewriting each body as JSON cost the
 * ingest a serialised document and PostgreSQL a parse per match.
 */
export function touchMatches(ids: string, tss: string, gen: string): string {
  return `UPDATE odds.matches m SET ts = GREATEST(m.ts, t.ts), stored_gen = ${gen}, removed = false
    FROM unnest(string_to_array(${ids}, ',')::bigint[], string_to_array(${tss}, ',')::bigint[]) AS t(id, ts)
    WHERE m.book = $1 AND m.id = t.id`;
}

/** `touchMatches`' two lists (see `positionColumns` for why lists). */
export function matchTimeColumns(rows: readonly MatchTime[]): [string, string] {
  const ids: number[] = [];
  const tss: number[] = [];
  for (const row of rows) {
    ids.push(row.matchId);
    tss.push(row.ts);
  }
  return [ids.join(','), tss.join(',')];
}

/** Upserts the `odds.markets` rows of the JSON document `rows` (`$1` the book). */
export function upsertMarkets(rows: string): string {
  return `INSERT INTO odds.markets (book, match_id, market_key, version, selections)
    SELECT $1, m."matchId", m."marketKey", m.version, m.selections
    FROM jsonb_to_recordset(${rows}::jsonb)
      AS m("matchId" bigint, "marketKey" text, version bigint, selections jsonb)
    ON CONFLICT (book, match_id, market_key) DO UPDATE SET version = EXCLUDED.version,
      selections = EXCLUDED.selections, removed_gen = NULL`;
}

/**
 * Positions of published matches for write `$5`, never lowered: `$2`-`$4`
 * the ids, sequences and previous sequences as comma-separated lists (see
 * `positionColumns`).
 */
export const RECORD_POSITIONS = `UPDATE odds.matches m SET published_gen = GREATEST(m.published_gen, $5),
    change_seq = CASE WHEN p.seq IS NOT NULL AND (m.change_seq IS NULL OR m.change_seq < p.seq)
      THEN p.seq ELSE m.change_seq END,
    prev_change_seq = CASE WHEN p.seq IS NOT NULL AND (m.change_seq IS NULL OR m.change_seq < p.seq)
      THEN p.prev ELSE m.prev_change_seq END
  FROM unnest(string_to_array($2, ',')::bigint[], string_to_array($3, ',', '')::bigint[],
    string_to_array($4, ',', '')::bigint[]) AS p(id, seq, prev)
  WHERE m.book = $1 AND m.id = p.id`;

export interface PositionRow {
  readonly matchId: number;
  readonly seq: number | null;
  readonly prevSeq: number | null;
}

/**
 * `RECORD_POSITIONS`' three lists, an empty item for no position. A
 * `bigint[]` parameter of a poll's thousand matches went through
 * node-postgres's array encoder, which quotes and escapes every number as a
 * string; a joined list of integers is one string per column.
 */
export function positionColumns(rows: readonly PositionRow[]): [string, string, string] {
  const ids: number[] = [];
  const seqs: (number | string)[] = [];
  const prevs: (number | string)[] = [];
  for (const row of rows) {
    ids.push(row.matchId);
    seqs.push(row.seq ?? '');
    prevs.push(row.prevSeq ?? '');
  }
  return [ids.join(','), seqs.join(','), prevs.join(',')];
}

export function matchRowsJson(rows: readonly StoredMatch[]): string {
  return JSON.stringify(rows.map((m) => ({ body: m.info, ts: m.ts })));
}

export function marketRowsJson(rows: readonly StoredMarket[]): string {
  return `[${rows.map(storedMarketJson).join(',')}]`;
}

/** A market row as `jsonb_to_recordset` reads it, its selections serialised once. */
function storedMarketJson(market: StoredMarket): string {
  const selections = market.selectionsJson ?? JSON.stringify(market.selections);
  return `{"matchId":${market.matchId},"marketKey":${JSON.stringify(market.marketKey)},"version":${market.version},"selections":${selections}}`;
}

export function chunks<T>(rows: readonly T[]): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < rows.length; start += BATCH) result.push(rows.slice(start, start + BATCH));
  return result;
}
