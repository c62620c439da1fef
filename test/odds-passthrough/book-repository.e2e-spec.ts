import type { DataSource } from 'typeorm';
import { buildDataSourceOptions, openDataSource } from '@app/database';
import { BookRepository, type StoredMarket } from '../../apps/odds-passthrough/src/book/book.repository';
import type { Selection } from '../../apps/odds-passthrough/src/book/domain/selection';
import { scratchDatabase } from '../support/scratch-database';

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

/** BookRepository against a real PostgreSQL: a book of thousands of markets reads back whole. */
describe('BookRepository', () => {
  const url = scratchDatabase('it_book_repo');
  let dataSource: DataSource;
  let repository: BookRepository;

  beforeAll(async () => {
    dataSource = await openDataSource(
      buildDataSourceOptions({ url, applicationName: 'test', migrationsRun: true }),
    );
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
      removedMatches: [],
      markets: written,
      removedMarkets: [],
    });
    await repository.write('other', {
      leagues: [],
      matches: [],
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
});
