import request from 'supertest';
import { type BootedApp, bootOdds, http } from '../support/apps';
import type { FakeSportsbook } from '../support/fake-sportsbook';
import { waitFor } from '../support/wait-for';
import type { IsolatedStack } from '../streams/support/isolated-stack';
import { MATCH, TENNIS_MATCH } from './book-fixture';

/**
 * odds-passthrough booted on `stack` against `book` (seeded with `seedBook`), polling it every
 * 200 ms, returned once `key` is served both sports' matches.
 */
export async function bootOnSeededBook(
  stack: IsolatedStack,
  book: FakeSportsbook,
  key: string,
): Promise<BootedApp> {
  const booted = await bootOdds({ env: { ...stack.env, BOOK_UPSTREAM_URL: book.url, BOOK_POLL_MS: '200' } });
  const served = async (match: number) =>
    (await request(http(booted.app)).get('/v1/book/odds').query({ match }).set('X-API-Key', key)).status ===
    200;
  await waitFor(async () => (await served(MATCH)) && (await served(TENNIS_MATCH)), {
    timeoutMs: 10_000,
    what: 'the book to be ingested',
  });
  return booted;
}
