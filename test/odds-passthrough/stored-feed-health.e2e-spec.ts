import type { INestApplication } from '@nestjs/common';
import { Client } from 'pg';
import type { ManualClock } from '@app/clock';
import { bootOdds } from '../support/apps';
import { FakeSportsbook } from '../support/fake-sportsbook';
import { waitFor } from '../support/wait-for';
import { type IsolatedStack, isolatedStack } from '../streams/support/isolated-stack';
import { seedBook } from './book-fixture';

interface StoredHealth {
  readonly last_success_at: number;
  readonly full_loaded: boolean;
}

/**
 * The stored copy of the feed health, which a replica starting late reads before any live message:
 * the holder of the ingest lease writes it on its lease's PostgreSQL probes, so it must keep up
 * with the polls while the ingest runs alone.
 */
describe('stored feed health', () => {
  const book = new FakeSportsbook();
  let stack: IsolatedStack;
  let app: INestApplication;
  let clock: ManualClock;

  async function storedHealth(): Promise<StoredHealth | undefined> {
    const db = new Client({ connectionString: stack.env.DATABASE_URL });
    await db.connect();
    try {
      const { rows } = await db.query<{ last_success_at: string | null; full_loaded: boolean }>(
        `SELECT last_success_at::text, full_loaded FROM odds.feeds WHERE book = 'book'`,
      );
      const row = rows[0];
      return row?.last_success_at
        ? { last_success_at: Number(row.last_success_at), full_loaded: row.full_loaded }
        : undefined;
    } finally {
      await db.end();
    }
  }

  beforeAll(async () => {
    stack = await isolatedStack('odds_feed_health');
    await book.start();
    seedBook(book);
    ({ app, clock } = await bootOdds({
      env: { ...stack.env, BOOK_POLL_MS: '200', BOOK_RELIST_MS: '1000', BOOK_UPSTREAM_URL: book.url },
    }));
  }, 90_000);

  afterAll(async () => {
    await app?.close();
    await book.stop();
    await stack?.drop();
  });

  it('is written after the full load and rewritten as the polls go on, each copy newer', async () => {
    let first: StoredHealth | undefined;
    await waitFor(async () => (first = await storedHealth()) !== undefined, {
      timeoutMs: 15_000,
      intervalMs: 100,
      what: 'a stored feed health after a full load',
    });
    expect(first?.full_loaded).toBe(true);
    clock.advance(60_000);
    let later: StoredHealth | undefined;
    await waitFor(
      async () => {
        later = await storedHealth();
        return (later?.last_success_at ?? 0) > (first?.last_success_at ?? 0);
      },
      { timeoutMs: 15_000, intervalMs: 100, what: 'a newer stored feed health' },
    );
    expect(later).toEqual({ last_success_at: clock.now(), full_loaded: true });
  });
});
