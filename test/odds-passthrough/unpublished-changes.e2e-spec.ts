import type { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { buildDataSourceOptions, openDataSource } from '@app/database';
import { BookRepository } from '../../apps/odds-passthrough/src/book/book.repository';
import { IngestBook } from '../../apps/odds-passthrough/src/book/domain';
import { ReplicaBook } from '../../apps/odds-passthrough/src/book/replica-book';
import { buildPublication } from '../../apps/odds-passthrough/src/ingest/book-publication';
import { BookSeed } from '../../apps/odds-passthrough/src/ingest/book-seed';
import type { UpstreamMarket, UpstreamMatchup } from '../../apps/odds-passthrough/src/upstream';
import { scratchDatabase } from '../support/scratch-database';
import { aMatchup, aMoneyline, aTotal } from './sportsbook-factory';

const SOCCER = 29;
const FIRST = 1601234567;
const SECOND = 1601234600;
const LEAGUES = [{ id: 1980, name: 'England - Premier League' }];
const T0 = Date.parse('2026-11-21T12:00:00Z');
const quiet = { log: () => undefined, warn: () => undefined } as unknown as Logger;

function marketsOf(matchupId: number, total = true): UpstreamMarket[] {
  return [aMoneyline({ matchup_id: matchupId }), ...(total ? [aTotal(2.5, { matchup_id: matchupId })] : [])];
}

/**
 * The store's side of "nothing stored is lost": what an ingest stored but
 * never published (it stopped in between: fenced, frozen, killed) must be
 * announced by the next term, which seeds itself from PostgreSQL. Written
 * against a real database; the ingest's book, publication and seed are the
 * application's own.
 */
describe('odds rows stored but never published', () => {
  const url = scratchDatabase('it_unpub');
  let dataSource: DataSource;
  let repository: BookRepository;
  let book: string;
  let now = T0;

  beforeAll(async () => {
    dataSource = await openDataSource(
      buildDataSourceOptions({ url, applicationName: 'test', migrationsRun: true }),
    );
    repository = new BookRepository(dataSource);
  });
  afterAll(() => dataSource.destroy());

  let bookCount = 0;
  beforeEach(() => {
    book = `book${++bookCount}`;
    now = T0;
  });

  /** An ingest term: applies a full load, stores it, and records as published only `published`. */
  async function storeLoad(
    state: IngestBook,
    matchups: UpstreamMatchup[],
    markets: UpstreamMarket[],
    published: (matchId: number) => boolean,
  ): Promise<void> {
    now += 1000;
    const diff = state.applyFull(SOCCER, { leagues: LEAGUES, matchups, markets }, now);
    const publication = buildPublication(state, diff);
    if (!publication) return;
    const gen = await repository.write(book, publication.write);
    const out = publication.frames.filter((frame) => published(frame.matchId));
    if (out.length === 0) return;
    await repository.writePublished(book, gen, {
      positions: out.map((frame, i) => ({ matchId: frame.matchId, seq: gen * 10 + i, prevSeq: null })),
      catalogMatches: [],
      withRemovals: publication.withRemovals.filter(published),
    });
  }

  async function newTerm(): Promise<IngestBook> {
    const state = await new BookSeed(book, repository, quiet).load({
      recall: () => undefined,
      stopped: () => false,
      wait: () => Promise.resolve(),
    });
    state.applySports([{ id: SOCCER, name: 'Soccer' }], now);
    state.applyLabels(SOCCER, [{ number: 0, description: 'Match' }], now);
    return state;
  }

  function firstTerm(): IngestBook {
    const state = new IngestBook(book);
    state.applySports([{ id: SOCCER, name: 'Soccer' }], now);
    state.applyLabels(SOCCER, [{ number: 0, description: 'Match' }], now);
    return state;
  }

  const BOTH = [aMatchup(), aMatchup({ id: SECOND })];

  it('the next term announces a stored change that never went out, and nothing that did', async () => {
    const first = firstTerm();
    await storeLoad(first, BOTH, [...marketsOf(FIRST), ...marketsOf(SECOND)], (id) => id === FIRST);

    const second = await newTerm();
    const diff = second.applyFull(
      SOCCER,
      { leagues: LEAGUES, matchups: BOTH, markets: [...marketsOf(FIRST), ...marketsOf(SECOND)] },
      now + 1000,
    );
    expect(diff.matches.map((match) => match.id)).toEqual([SECOND]);
    expect(diff.changes.map((change) => [change.matchId, change.selections.length])).toEqual([[SECOND, 5]]);
  });

  it('once it went out, a term after that announces nothing', async () => {
    const first = firstTerm();
    await storeLoad(first, BOTH, [...marketsOf(FIRST), ...marketsOf(SECOND)], (id) => id === FIRST);
    const second = await newTerm();
    await storeLoad(second, BOTH, [...marketsOf(FIRST), ...marketsOf(SECOND)], () => true);

    const third = await newTerm();
    const diff = third.applyFull(
      SOCCER,
      { leagues: LEAGUES, matchups: BOTH, markets: [...marketsOf(FIRST), ...marketsOf(SECOND)] },
      now + 1000,
    );
    expect(diff.matches).toEqual([]);
    expect(diff.changes).toEqual([]);
  });

  it('keeps an unpublished removal as a tombstone no replica serves, announced by the next term, then dropped', async () => {
    const first = firstTerm();
    await storeLoad(first, BOTH, [...marketsOf(FIRST), ...marketsOf(SECOND)], () => true);
    // The total of FIRST and the whole of SECOND go, stored but never published.
    await storeLoad(first, [aMatchup()], marketsOf(FIRST, false), () => false);

    const replica = new ReplicaBook(book);
    replica.load(await repository.load(book, 1000), false);
    expect(replica.matchIds()).toEqual([FIRST]);
    expect(replica.snapshot(FIRST, now)?.selections).toHaveLength(3);

    const second = await newTerm();
    now += 1000;
    const diff = second.applyFull(
      SOCCER,
      { leagues: LEAGUES, matchups: [aMatchup()], markets: marketsOf(FIRST, false) },
      now,
    );
    expect(diff.removedMatches).toEqual([{ id: SECOND, sportId: SOCCER }]);
    const removedOfFirst = diff.changes.find((change) => change.matchId === FIRST)?.removedMarketKeys;
    expect(removedOfFirst).toEqual(['s;0;ou;2.5@2.5']);

    const publication = buildPublication(second, diff);
    if (!publication) throw new Error('the second term announced nothing');
    const gen = await repository.write(book, publication.write);
    await repository.writePublished(book, gen, {
      positions: publication.frames.map((frame, i) => ({
        matchId: frame.matchId,
        seq: 1000 + i,
        prevSeq: null,
      })),
      catalogMatches: publication.catalogOnly,
      withRemovals: publication.withRemovals,
    });
    const rows = await dataSource.query<{ match_id: string; market_key: string }[]>(
      `SELECT match_id, market_key FROM odds.markets WHERE book = $1 ORDER BY market_key`,
      [book],
    );
    expect(rows.map((row) => row.market_key)).toEqual(['s;0;m']);
    const matches = await dataSource.query<{ id: string }[]>(`SELECT id FROM odds.matches WHERE book = $1`, [
      book,
    ]);
    expect(matches.map((row) => Number(row.id))).toEqual([FIRST]);
  });

  it('a later stored change stays unpublished when an earlier write of the same match is recorded as published', async () => {
    const first = firstTerm();
    now += 1000;
    const initial = buildPublication(
      first,
      first.applyFull(SOCCER, { leagues: LEAGUES, matchups: [aMatchup()], markets: marketsOf(FIRST) }, now),
    );
    now += 1000;
    const moved = buildPublication(
      first,
      first.applyFull(
        SOCCER,
        {
          leagues: LEAGUES,
          matchups: [aMatchup()],
          markets: [aMoneyline({ version: 2, prices: [{ designation: 'home', price: 120 }] }), aTotal()],
        },
        now,
      ),
    );
    if (!initial || !moved) throw new Error('both loads should change the book');
    // Both are stored before the first is published: the outbox stores ahead of what it publishes.
    const firstGen = await repository.write(book, initial.write);
    await repository.write(book, moved.write);
    await repository.writePublished(book, firstGen, {
      positions: [{ matchId: FIRST, seq: 1, prevSeq: null }],
      catalogMatches: [],
      withRemovals: [],
    });

    const stored = await repository.load(book, 1000);
    expect(stored.matches.map((match) => [match.info.id, match.unpublished])).toEqual([[FIRST, true]]);
  });
});
