import type { DataSource, Logger as TypeOrmLogger } from 'typeorm';
import { buildDataSourceOptions, openDataSource } from '@app/database';
import {
  BookRepository,
  type BookWrite,
  type StoredMarket,
  type StoredMatch,
} from '../../apps/odds-passthrough/src/book/book.repository';
import type { Selection } from '../../apps/odds-passthrough/src/book/domain/selection';
import { IngestBook } from '../../apps/odds-passthrough/src/book/domain';
import { buildPublication } from '../../apps/odds-passthrough/src/ingest/book-publication';
import { seededBook } from '../../apps/odds-passthrough/src/ingest/book-seed';
import { countParts } from '../support/parts';
import { scratchDatabase } from '../support/scratch-database';
import { aMatchup, aMoneyline, aTotal } from './sportsbook-factory';

const MATCHES = 90;
const MARKETS_PER_MATCH = 50;

function selection(matchId: number, key: string, designation: string): Selection {
  return {
    market_key: key,
    market_name: 'Total - Match',
    period: 0,
    bet_name: `${designation} ${matchId % 7}.5`,
    line: (matchId % 7) + 0.5,
    price: -110,
    decimal: 1.909,
    status: 'unlocked',
    version: 1_790_000_000_000 + matchId,
    cutoff_at: '2099-01-01T12:00:00Z',
    limit: 500,
  };
}

function market(matchId: number, m: number): StoredMarket {
  const key = `s;0;ou;${m}.5`;
  return {
    matchId,
    marketKey: key,
    version: 1_790_000_000_000 + matchId,
    selections: [selection(matchId, key, 'Over'), selection(matchId, key, 'Under')],
  };
}

function match(id: number): StoredMatch {
  return {
    info: {
      id,
      sport_id: 29,
      league_id: 1980,
      league_name: 'Big League',
      home: `Home ${id}`,
      away: `Away ${id}`,
      start_time: '2099-01-01T12:00:00Z',
      is_live: false,
      parent_id: null,
      version: 1_790_000_000_000 + id,
    },
    ts: 1_790_000_000_500 + id,
  };
}

/** Match and market rows only: what every part of a full load and nearly every poll writes. */
function rowsOnly(ids: readonly number[]): BookWrite {
  return {
    leagues: [],
    matches: ids.map(match),
    matchTimes: [],
    removedMatches: [],
    markets: ids.flatMap((id) => [market(id, 0), market(id, 1)]),
    removedMarkets: [],
  };
}

/** BookRepository against a real PostgreSQL: a book of thousands of markets reads back whole. */
describe('BookRepository', () => {
  const url = scratchDatabase('it_book_repo');
  let dataSource: DataSource;
  let repository: BookRepository;
  /** Every statement the repository sent, transaction control included, while `recording`. */
  const statements: string[] = [];
  let recording = false;
  const logger: TypeOrmLogger = {
    logQuery: (query) => void (recording && statements.push(query.trim().split(/\s+/)[0])),
    logQueryError: () => undefined,
    logQuerySlow: () => undefined,
    logSchemaBuild: () => undefined,
    logMigration: () => undefined,
    log: () => undefined,
  };
  const recorded = async (work: () => Promise<unknown>): Promise<string[]> => {
    statements.length = 0;
    recording = true;
    try {
      await work();
    } finally {
      recording = false;
    }
    return [...statements];
  };

  beforeAll(async () => {
    dataSource = await openDataSource({
      ...buildDataSourceOptions({ url, applicationName: 'test', migrationsRun: true }),
      logger,
    });
    repository = new BookRepository(dataSource);
  });
  afterAll(() => dataSource.destroy());

  it("reads back every market of a book, once each, in match and key order, and no other book's", async () => {
    const written: StoredMarket[] = [];
    // Matches written in descending id order, keys in an order that is not the stored one.
    for (let matchId = MATCHES; matchId >= 1; matchId--) {
      for (let m = MARKETS_PER_MATCH - 1; m >= 0; m--) written.push(market(matchId, m));
    }
    await repository.write('big', {
      leagues: [],
      matches: [],
      matchTimes: [],
      removedMatches: [],
      markets: written,
      removedMarkets: [],
    });
    await repository.write('other', {
      leagues: [],
      matches: [],
      matchTimes: [],
      removedMatches: [],
      markets: [market(1, 0)],
      removedMarkets: [],
    });

    const { markets } = await repository.load('big', 1000);

    // The order of one statement over the whole table, in the database's own collation.
    const ordered = await dataSource.query<{ id: string }[]>(
      `SELECT match_id || '/' || market_key AS id FROM odds.markets WHERE book = 'big'
       ORDER BY match_id, market_key`,
    );
    expect(markets).toHaveLength(MATCHES * MARKETS_PER_MATCH);
    expect(markets.map((m) => `${m.matchId}/${m.marketKey}`)).toEqual(ordered.map((row) => row.id));
    expect(markets.find((m) => m.matchId === 3 && m.marketKey === 's;0;ou;7.5')).toEqual(market(3, 7));
    // Selections come back with their fields in the public order, whatever order jsonb keeps.
    expect(JSON.stringify(markets[0].selections)).toBe(JSON.stringify(market(1, 0).selections));
  });

  it('stores match and market rows in one statement, at the generation the write answers', async () => {
    let first = 0;
    let second = 0;
    const sent = await recorded(async () => {
      first = await repository.write('single', rowsOnly([11, 12]));
      second = await repository.write('single', rowsOnly([12]));
    });

    // No transaction around them: each write is a single statement, atomic on its own.
    expect(sent).toEqual(['WITH', 'WITH']);
    expect(second).toBeGreaterThan(first);
    const rows = await dataSource.query<{ id: string; stored_gen: string }[]>(
      `SELECT id, stored_gen FROM odds.matches WHERE book = 'single' ORDER BY id`,
    );
    expect(rows).toEqual([
      { id: '11', stored_gen: String(first) },
      { id: '12', stored_gen: String(second) },
    ]);
    const { markets } = await repository.load('single', 1000);
    expect(markets.map((m) => `${m.matchId}/${m.marketKey}`)).toEqual([
      '11/s;0;ou;0.5',
      '11/s;0;ou;1.5',
      '12/s;0;ou;0.5',
      '12/s;0;ou;1.5',
    ]);
  });

  it('stores the same rows in one statement as in a transaction of several', async () => {
    const ids = [21, 22, 23];
    await repository.write('one-statement', rowsOnly(ids));
    // A league list makes it a write of several statements; an empty one for a sport of no match.
    await repository.write('transaction', { ...rowsOnly(ids), leagues: [{ sport_id: 99, leagues: [] }] });

    const [one, several] = await Promise.all(
      ['one-statement', 'transaction'].map((book) => repository.load(book, 1000)),
    );
    expect(one.matches.map((m) => m.info)).toEqual(ids.map((id) => match(id).info));
    expect(one.matches).toEqual(several.matches);
    expect(one.markets).toEqual(several.markets);
    expect(one.markets).toHaveLength(ids.length * 2);
  });

  it("stores a match whose prices alone moved by its ts, body kept, in the write's one statement", async () => {
    const first = await repository.write('times', rowsOnly([61, 62]));
    await repository.writePublished('times', first, {
      positions: [{ matchId: 61, seq: 3, prevSeq: null }],
      catalogMatches: [62],
      withRemovals: [],
    });
    const later = match(61).ts + 5_000;
    const moved = { ...market(61, 0), version: market(61, 0).version + 1 };
    let second = 0;
    const sent = await recorded(async () => {
      second = await repository.write('times', {
        ...rowsOnly([]),
        matchTimes: [{ matchId: 61, ts: later }],
        markets: [moved],
      });
    });
    // An older ts, as a late write would carry, never lowers the stored one.
    const third = await repository.write('times', {
      ...rowsOnly([]),
      matchTimes: [{ matchId: 61, ts: later - 1 }],
    });

    expect(sent).toEqual(['WITH']);
    const rows = await dataSource.query<{ id: string; ts: string; stored_gen: string }[]>(
      `SELECT id, ts, stored_gen FROM odds.matches WHERE book = 'times' ORDER BY id`,
    );
    expect(rows).toEqual([
      { id: '61', ts: String(later), stored_gen: String(third) },
      { id: '62', ts: String(match(62).ts), stored_gen: String(first) },
    ]);
    expect(third).toBeGreaterThan(second);
    const { matches, markets } = await repository.load('times', 1000);
    // The body is the one stored with the match; the change is stored, not yet published.
    expect(matches.map((m) => [m.info, m.ts, m.unpublished])).toEqual([
      [match(61).info, later, true],
      [match(62).info, match(62).ts, false],
    ]);
    expect(markets.find((m) => m.matchId === 61 && m.marketKey === moved.marketKey)?.version).toBe(
      moved.version,
    );
  });

  it('stores match times alike in a write of several statements', async () => {
    await repository.write('times-tx', rowsOnly([71]));
    const gen = await repository.write('times-tx', {
      ...rowsOnly([]),
      leagues: [{ sport_id: 99, leagues: [] }],
      matchTimes: [{ matchId: 71, ts: match(71).ts + 9 }],
    });

    const rows = await dataSource.query<{ ts: string; stored_gen: string }[]>(
      `SELECT ts, stored_gen FROM odds.matches WHERE book = 'times-tx'`,
    );
    expect(rows).toEqual([{ ts: String(match(71).ts + 9), stored_gen: String(gen) }]);
  });

  it('records positions alone in one statement, and never lowers them', async () => {
    const gen = await repository.write('positions', rowsOnly([31, 32]));
    const sent = await recorded(() =>
      repository.writePublished('positions', gen, {
        positions: [
          { matchId: 31, seq: 40, prevSeq: 12 },
          { matchId: 32, seq: 41, prevSeq: null },
        ],
        catalogMatches: [],
        withRemovals: [],
      }),
    );
    await repository.writePublished('positions', gen, {
      positions: [{ matchId: 31, seq: 39, prevSeq: 11 }],
      catalogMatches: [32],
      withRemovals: [],
    });

    expect(sent).toEqual(['UPDATE']);
    const { matches } = await repository.load('positions', 1000);
    expect(matches.map((m) => [m.info.id, m.position, m.unpublished])).toEqual([
      [31, { seq: 40, prevSeq: 12 }, false],
      [32, { seq: 41, prevSeq: null }, false],
    ]);
  });

  it('marks a lone catalog-only match published and keeps its position; a lone first position has no previous', async () => {
    const first = await repository.write('lone', rowsOnly([51, 52]));
    await repository.writePublished('lone', first, {
      positions: [{ matchId: 51, seq: 5, prevSeq: null }],
      catalogMatches: [],
      withRemovals: [],
    });
    const second = await repository.write('lone', rowsOnly([51]));
    await repository.writePublished('lone', second, {
      positions: [],
      catalogMatches: [51],
      withRemovals: [],
    });

    const { matches } = await repository.load('lone', 1000);
    expect(matches.map((m) => [m.info.id, m.position, m.unpublished])).toEqual([
      [51, { seq: 5, prevSeq: null }, false],
      [52, null, true],
    ]);
  });

  it("seeds a restarted ingest from the selections' stored text: only what changed is announced again", async () => {
    const NOW = Date.parse('2026-11-21T12:00:00Z');
    const labelled = (book: IngestBook) => book.applyLabels(29, [{ number: 0, description: 'Match' }], NOW);
    const load = (markets: ReturnType<typeof aTotal>[]) => ({
      leagues: [{ id: 1980, name: 'EPL' }],
      matchups: [aMatchup()],
      markets,
    });
    const first = new IngestBook('seeded');
    labelled(first);
    const publication = buildPublication(first, first.applyFull(29, load([aMoneyline(), aTotal()]), NOW))!;
    const gen = await repository.write('seeded', publication.write);
    await repository.writePublished('seeded', gen, {
      positions: [{ matchId: aMatchup().id, seq: 7, prevSeq: null }],
      catalogMatches: [],
      withRemovals: [],
    });
    const versions = new Map(
      first.matchOdds(aMatchup().id, NOW)!.selections.map((s) => [s.market_key, s.version]),
    );

    const stored = await repository.loadSeed('seeded');
    // PostgreSQL's rendering of jsonb, not the text the ingest wrote: parsed only when compared.
    expect(stored.markets.map((m) => JSON.parse(m.selectionsText) as Selection[])).toEqual(
      publication.write.markets.map((m) => m.selections),
    );
    const recalled: number[] = [];
    const after = countParts(seededBook('seeded', stored, (_id, seq) => recalled.push(seq))).value;
    labelled(after);
    const moved = aMoneyline({
      version: 2,
      prices: [{ designation: 'home', price: 155 }, ...aMoneyline().prices.slice(1)],
    });
    const diff = after.applyFull(29, load([moved, aTotal()]), NOW + 1000);

    expect(recalled).toEqual([7]);
    expect(diff.matches).toEqual([]);
    expect(diff.changes).toHaveLength(1);
    const announced = diff.changes[0].selections;
    expect(new Set(announced.map((s) => s.market_key))).toEqual(new Set(['s;0;m']));
    expect(announced.every((s) => s.version > versions.get('s;0;m')!)).toBe(true);
    const total = after
      .matchOdds(aMatchup().id, NOW + 1000)!
      .selections.filter((s) => s.market_key === 's;0;ou;2.5');
    expect(total.map((s) => s.version)).toEqual([versions.get('s;0;ou;2.5'), versions.get('s;0;ou;2.5')]);
  });

  it('reads a removed market for the seed as an empty list', async () => {
    await repository.write('tombstones', rowsOnly([51]));
    await repository.write('tombstones', {
      leagues: [],
      matches: [],
      matchTimes: [],
      removedMatches: [],
      markets: [],
      removedMarkets: [{ matchId: 51, marketKey: 's;0;ou;0.5' }],
    });

    const { markets } = await repository.loadSeed('tombstones');

    expect(markets.map((m) => [m.marketKey, m.selectionsText === '[]'])).toEqual([
      ['s;0;ou;0.5', true],
      ['s;0;ou;1.5', false],
    ]);
  });

  it("stores the feed's health once per book, each write replacing the last, for a replica's start", async () => {
    expect((await repository.load('healthy', 1000)).health).toBeUndefined();

    await repository.writeHealth('healthy', { last_success_at: null, full_loaded: false, poll_ms: 1000 });
    await repository.writeHealth('healthy', {
      last_success_at: 1_790_000_000_123,
      full_loaded: true,
      poll_ms: 1000,
    });

    expect((await repository.load('healthy', 1000)).health).toEqual({
      last_success_at: 1_790_000_000_123,
      full_loaded: true,
      poll_ms: 1000,
    });
    expect((await repository.load('other', 1000)).health).toBeUndefined();
  });
});
