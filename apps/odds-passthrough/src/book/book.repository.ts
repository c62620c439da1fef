import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { ChangePosition } from '@app/messaging';
import type { FeedHealthMessage, LeagueInfo, MatchInfo, SportInfo, SportLeagues } from './book-messages';
import { inParts, mapInParts } from '../common/work-in-parts';
import type { Selection } from './domain/selection';
import { StringPool } from './domain/string-pool';
import {
  BATCH,
  chunks,
  isRowsOnly,
  type MarketRow,
  type MarketTextRow,
  marketRowsJson,
  type MatchRow,
  matchTimeColumns,
  matchRowsJson,
  RECORD_POSITIONS,
  positionColumns,
  storedMarket,
  storedMatch,
  storedSeedMarket,
  touchMatches,
  upsertMarkets,
  upsertMatches,
} from './book-rows';

/*
 * Both sides: the books' shared state in PostgreSQL (schema `odds`), its
 * stored types and the queries that read and write them; the statements'
 * text and the rows' mapping are in book-rows.ts. The ingest writes through
 * it (BookOutbox) and seeds its IngestBook from it (BookSeed); api replicas
 * load their ReplicaBook from it (ReplicaBookService). It holds no state of
 * its own.
 */

/** Rows read back per turn of the event loop: a few milliseconds of mapping. */
const ROWS_PER_PART = 2000;

/**
 * One row of `odds.markets`: a market's selections exactly as last stored;
 * none once removed (a tombstone kept until the removal is published).
 */
export interface StoredMarket {
  readonly matchId: number;
  readonly marketKey: string;
  readonly version: number;
  readonly selections: readonly Selection[];
  /** `selections` already serialised (the ingest wrote the same text into the market's frame). */
  readonly selectionsJson?: string;
}

/** One row of `odds.matches`: the public match object and its `ts`. */
export interface StoredMatch {
  readonly info: MatchInfo;
  readonly ts: number;
  /** Its newest change's place in the book's change log; null or absent before its first append. */
  readonly position?: ChangePosition | null;
  /** Its newest stored change was never published (the ingest stopped in between). */
  readonly unpublished?: boolean;
  /** Removed from the book, the removal not yet published: a tombstone no replica serves. */
  readonly removed?: boolean;
}

/**
 * One row of `odds.markets` as the ingest's seed reads it: its selections as
 * the JSON text PostgreSQL renders (`[]` once removed), not parsed. A restart
 * compares each with the upstream's market once, on its first load.
 */
export interface StoredSeedMarket {
  readonly matchId: number;
  readonly marketKey: string;
  readonly version: number;
  readonly selectionsText: string;
}

/** What the ingest's seed reads of one book: its matches, and its markets as text. */
export interface StoredSeed {
  readonly matches: readonly StoredMatch[];
  readonly markets: readonly StoredSeedMarket[];
}

/** Every row of one book, as `load` reads them back. */
export interface StoredBook {
  readonly sports: readonly SportInfo[];
  readonly leagues: readonly LeagueInfo[];
  readonly matches: readonly StoredMatch[];
  readonly markets: readonly StoredMarket[];
  readonly health?: FeedHealthMessage;
}

/** Everything one flush writes; each part is proportional to what changed. */
export interface BookWrite {
  /** When present, replaces the book's sport list. */
  readonly sports?: readonly SportInfo[];
  /** Each entry replaces the league list of one sport. */
  readonly leagues: readonly SportLeagues[];
  readonly matches: readonly StoredMatch[];
  /**
   * Matches whose public object is stored as it stands, and whose `ts` alone
   * moved (a price changed, the match did not): their rows keep their body
   * and take the new `ts` and this write's generation.
   */
  readonly matchTimes: readonly MatchTime[];
  /** Removing a match removes its markets too. */
  readonly removedMatches: readonly number[];
  readonly markets: readonly StoredMarket[];
  readonly removedMarkets: readonly { readonly matchId: number; readonly marketKey: string }[];
}

/** A stored match's newer `ts`: see `BookWrite.matchTimes`. */
export interface MatchTime {
  readonly matchId: number;
  readonly ts: number;
}

export interface MatchPosition extends ChangePosition {
  readonly matchId: number;
}

/** What went out of one write (its generation): written after the publication, never before. */
export interface PublishedWrite {
  /** Change-log positions of the match frames published (never lowered). */
  readonly positions: readonly MatchPosition[];
  /** Matches whose change went out in the catalog alone (no frame). */
  readonly catalogMatches: readonly number[];
  /** Published matches with removals: their tombstones up to this generation go. */
  readonly withRemovals: readonly number[];
}

/** Reads and writes the current state of every book; each call names its book. */
@Injectable()
export class BookRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** `pollMs` is this process's BOOK_POLL_MS, against which the stored feed health is judged. */
  async load(book: string, pollMs: number): Promise<StoredBook> {
    const [sports, leagues, storedMatches, markets, feeds] = await Promise.all([
      this.dataSource.query<{ id: string; name: string }[]>(
        `SELECT id, name FROM odds.sports WHERE book = $1 ORDER BY id`,
        [book],
      ),
      this.dataSource.query<{ id: string; sport_id: string; name: string }[]>(
        `SELECT id, sport_id, name FROM odds.leagues WHERE book = $1 ORDER BY id`,
        [book],
      ),
      this.loadMatches(book),
      this.dataSource.query<MarketRow[]>(
        `SELECT match_id, market_key, version, selections FROM odds.markets WHERE book = $1 ORDER BY match_id, market_key`,
        [book],
      ),
      this.dataSource.query<{ last_success_at: string | null; full_loaded: boolean }[]>(
        `SELECT last_success_at, full_loaded FROM odds.feeds WHERE book = $1`,
        [book],
      ),
    ]);
    // Each row brings its own copy of its market_key, and a book repeats a few thousand keys
    // across its matches: the seed's versions and the replica's markets are keyed by them for as
    // long as the process runs, 200,000 strings after a restart where a pool holds a few.
    // A book of 100,000 markets is hundreds of milliseconds of mapping: a part at a time.
    const keys = new StringPool();
    const storedMarkets = await inParts(mapInParts(markets, ROWS_PER_PART, (row) => storedMarket(row, keys)));
    return {
      sports: sports.map((row) => ({ id: Number(row.id), name: row.name })),
      leagues: leagues.map((row) => ({ id: Number(row.id), name: row.name, sport_id: Number(row.sport_id) })),
      matches: storedMatches,
      markets: storedMarkets,
      health: feeds[0] && {
        last_success_at: feeds[0].last_success_at === null ? null : Number(feeds[0].last_success_at),
        full_loaded: feeds[0].full_loaded,
        poll_ms: pollMs,
      },
    };
  }

  /**
   * What a starting ingest seeds its book from. Selections stay the text
   * PostgreSQL sends: node-postgres would parse each market's `jsonb` into
   * objects that a restart of a large book holds, hundreds of thousands of
   * them, until its first full load has compared every market.
   */
  async loadSeed(book: string): Promise<StoredSeed> {
    const [matches, markets] = await Promise.all([
      this.loadMatches(book),
      this.dataSource.query<MarketTextRow[]>(
        `SELECT match_id, market_key, version, selections::text AS selections
         FROM odds.markets WHERE book = $1 ORDER BY match_id, market_key`,
        [book],
      ),
    ]);
    const keys = new StringPool();
    return {
      matches,
      markets: await inParts(mapInParts(markets, ROWS_PER_PART, (row) => storedSeedMarket(row, keys))),
    };
  }

  /**
   * Stores one publication's rows before it goes out, and resolves with the
   * write's generation, which `writePublished` names once it went out.
   * Removals are stored as tombstones until then.
   *
   * A write of match and market rows alone that fits one batch (every part
   * of a full load, nearly every poll) is one statement, atomic on its own:
   * each round trip waits for the ingest's busy event loop to come round, and
   * a transaction of five of them held a full load back by about a fifth.
   */
  async write(book: string, change: BookWrite): Promise<number> {
    if (isRowsOnly(change)) {
      const [{ gen }] = await this.dataSource.query<{ gen: string }[]>(
        `WITH g AS (SELECT nextval('odds.write_gen') AS gen),
           matches AS (${upsertMatches('$2', '(SELECT gen FROM g)')}),
           times AS (${touchMatches('$4', '$5', '(SELECT gen FROM g)')}),
           markets AS (${upsertMarkets('$3')})
         SELECT gen FROM g`,
        [
          book,
          matchRowsJson(change.matches),
          marketRowsJson(change.markets),
          ...matchTimeColumns(change.matchTimes),
        ],
      );
      return Number(gen);
    }
    return this.dataSource.transaction(async (manager) => {
      const [{ gen }] = await manager.query<{ gen: string }[]>(`SELECT nextval('odds.write_gen') AS gen`);
      if (change.sports) await this.replaceSports(manager, book, change.sports);
      for (const { sport_id, leagues } of change.leagues) {
        await manager.query(
          `DELETE FROM odds.leagues WHERE book = $1 AND sport_id = $2 AND NOT (id = ANY($3::bigint[]))`,
          [book, sport_id, leagues.map((l) => l.id)],
        );
        await manager.query(
          `INSERT INTO odds.leagues (book, id, sport_id, name)
           SELECT $1, * FROM unnest($2::bigint[], $3::bigint[], $4::text[])
           ON CONFLICT (book, id) DO UPDATE SET sport_id = EXCLUDED.sport_id, name = EXCLUDED.name`,
          [book, leagues.map((l) => l.id), leagues.map((l) => l.sport_id), leagues.map((l) => l.name)],
        );
      }
      for (const rows of chunks(change.matches)) {
        await manager.query(upsertMatches('$2', '$3'), [book, matchRowsJson(rows), gen]);
      }
      for (const rows of chunks(change.matchTimes)) {
        await manager.query(touchMatches('$2', '$3', '$4'), [book, ...matchTimeColumns(rows), gen]);
      }
      if (change.removedMatches.length > 0) {
        await manager.query(
          `UPDATE odds.markets SET selections = '[]', removed_gen = $3
           WHERE book = $1 AND match_id = ANY($2::bigint[])`,
          [book, change.removedMatches, gen],
        );
        await manager.query(
          `UPDATE odds.matches SET removed = true, stored_gen = $3 WHERE book = $1 AND id = ANY($2::bigint[])`,
          [book, change.removedMatches, gen],
        );
      }
      for (const rows of chunks(change.removedMarkets)) {
        await manager.query(
          `UPDATE odds.markets m SET selections = '[]', removed_gen = $4
           FROM unnest($2::bigint[], $3::text[]) AS r(match_id, market_key)
           WHERE m.book = $1 AND m.match_id = r.match_id AND m.market_key = r.market_key`,
          [book, rows.map((r) => r.matchId), rows.map((r) => r.marketKey), gen],
        );
      }
      for (const rows of chunks(change.markets)) {
        await manager.query(upsertMarkets('$2'), [book, marketRowsJson(rows)]);
      }
      return Number(gen);
    });
  }

  /**
   * Records that write `gen` went out: the positions its frames took, its
   * matches marked published up to it, and its tombstones dropped. A later
   * write of the same match, stored meanwhile, stays unpublished. Positions
   * alone, in one batch, are one statement (see `write`).
   */
  async writePublished(book: string, gen: number, published: PublishedWrite): Promise<void> {
    const positions = [
      ...published.positions,
      ...published.catalogMatches.map((matchId) => ({ matchId, seq: null, prevSeq: null })),
    ];
    const positionsOf = (rows: typeof positions) => [book, ...positionColumns(rows), gen];
    if (published.withRemovals.length === 0 && positions.length <= BATCH) {
      if (positions.length > 0) await this.dataSource.query(RECORD_POSITIONS, positionsOf(positions));
      return;
    }
    await this.dataSource.transaction(async (manager) => {
      for (const rows of chunks(positions)) await manager.query(RECORD_POSITIONS, positionsOf(rows));
      for (const ids of chunks(published.withRemovals)) {
        await manager.query(
          `DELETE FROM odds.markets WHERE book = $1 AND match_id = ANY($2::bigint[]) AND removed_gen <= $3`,
          [book, ids, gen],
        );
        await manager.query(
          `DELETE FROM odds.matches WHERE book = $1 AND id = ANY($2::bigint[]) AND removed AND stored_gen <= $3`,
          [book, ids, gen],
        );
      }
    });
  }

  /** The newest change-log position stored for the book (0 when none). */
  async topPosition(book: string): Promise<number> {
    const rows = await this.dataSource.query<{ top: string | null }[]>(
      `SELECT max(change_seq)::text AS top FROM odds.matches WHERE book = $1`,
      [book],
    );
    return Number(rows[0]?.top ?? 0);
  }

  async writeHealth(book: string, health: FeedHealthMessage): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO odds.feeds (book, last_success_at, full_loaded) VALUES ($1, $2, $3)
       ON CONFLICT (book) DO UPDATE SET last_success_at = EXCLUDED.last_success_at,
         full_loaded = EXCLUDED.full_loaded`,
      [book, health.last_success_at, health.full_loaded],
    );
  }

  private async loadMatches(book: string): Promise<StoredMatch[]> {
    const rows = await this.dataSource.query<MatchRow[]>(
      `SELECT body, ts, change_seq, prev_change_seq, stored_gen > published_gen AS unpublished, removed
       FROM odds.matches WHERE book = $1`,
      [book],
    );
    return inParts(mapInParts(rows, ROWS_PER_PART, storedMatch));
  }

  private async replaceSports(
    manager: EntityManager,
    book: string,
    sports: readonly SportInfo[],
  ): Promise<void> {
    await manager.query(`DELETE FROM odds.sports WHERE book = $1 AND NOT (id = ANY($2::bigint[]))`, [
      book,
      sports.map((s) => s.id),
    ]);
    await manager.query(
      `INSERT INTO odds.sports (book, id, name) SELECT $1, * FROM unnest($2::bigint[], $3::text[])
       ON CONFLICT (book, id) DO UPDATE SET name = EXCLUDED.name`,
      [book, sports.map((s) => s.id), sports.map((s) => s.name)],
    );
  }
}
