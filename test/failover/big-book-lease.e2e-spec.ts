import { seedWideBook, WIDE_SPORT as SPORT, wideMatchId } from '../odds-passthrough/wide-book';
import { FakeSportsbook } from '../support/fake-sportsbook';
import { type ServiceProcess, startService } from '../support/service-process';
import { waitFor } from '../support/wait-for';
import { type IsolatedStack, isolatedStack } from '../streams/support/isolated-stack';

/** 100,000 markets: the first full load is over a second of CPU, longer than the lease's fence. */
const MATCHES = 2_500;
const MARKETS_PER_MATCH = 40;
const SAMPLED = [0, 1, 625, 1_250, 1_875, 2_498, 2_499];

/**
 * A lone ingest loading a book of 100,000 markets keeps its lease: the load
 * is resolved, published and stored in parts with the event loop free in
 * between, so renewals are never late. Before, the first full load held the
 * loop past the fence, the process fenced itself, started over and fenced
 * again: the book was never served.
 */
describe('odds-passthrough ingest with a book of 100,000 markets', () => {
  const book = new FakeSportsbook();
  let stack: IsolatedStack | undefined;
  let service: ServiceProcess | undefined;

  afterAll(async () => {
    await service?.stop();
    await book.stop();
    await stack?.drop();
  });

  it('serves every market without ever losing its lease', async () => {
    stack = await isolatedStack('big_book');
    await book.start();
    seedWideBook(book, MATCHES, MARKETS_PER_MATCH);
    const key = await stack.issueKey({ scopes: 'odds', grants: [`book=${SPORT}`] });
    service = await startService('odds-passthrough', '/readyz', {
      ...stack.env,
      ROLE: 'all',
      BOOK_UPSTREAM_URL: book.url,
      BOOK_POLL_MS: '1000',
      LOG_LEVEL: 'warn',
    });
    const running = service;
    const selectionsOf = async (m: number): Promise<number> => {
      const answer = await fetch(`${running.url}/v1/book/odds?match=${wideMatchId(m)}`, {
        headers: { 'x-api-key': key },
      });
      return (await answer.text()).split('"market_key"').length - 1;
    };
    await waitFor(
      async () => {
        const counts = await Promise.all(SAMPLED.map(selectionsOf));
        return counts.every((count) => count === 2 * MARKETS_PER_MATCH);
      },
      { timeoutMs: 90_000, intervalMs: 500, what: 'every sampled match served with all its markets' },
    );
    const metrics = await (await fetch(`${running.url}/metrics`)).text();
    expect(metrics).toMatch(/^ingest_active\{feed="book"\} 1$/m);
    expect(running.output()).not.toMatch(/standby \(/);
  }, 120_000);
});
