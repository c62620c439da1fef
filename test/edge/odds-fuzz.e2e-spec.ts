import { MATCH, seedBook, SOCCER, TENNIS } from '../odds-passthrough/book-fixture';
import { FakeSportsbook } from '../support/fake-sportsbook';
import { startService } from '../support/service-process';
import { waitFor } from '../support/wait-for';
import { type IsolatedStack, isolatedStack } from '../streams/support/isolated-stack';
import { fuzzService } from './support/fuzz-suite';

/** Seeded fuzzing of odds-passthrough's HTTP edge and stream, with a book ingested (FUZZ_SEED replays a run). */
describe('odds-passthrough under generated requests and frames', () => {
  const book = new FakeSportsbook();
  let stack: IsolatedStack | undefined;

  fuzzService(async () => {
    stack = await isolatedStack('odds_fuzz');
    await book.start();
    seedBook(book);
    const key = await stack.issueKey({ scopes: 'odds', grants: [`book=${SOCCER},${TENNIS}`] });
    const service = await startService('odds-passthrough', '/readyz', {
      ...stack.env,
      ROLE: 'all',
      BOOK_UPSTREAM_URL: book.url,
      BOOK_POLL_MS: '500',
    });
    await waitFor(
      async () =>
        (await fetch(`${service.url}/v1/book/odds?match=${MATCH}`, { headers: { 'X-API-Key': key } }))
          .status === 200,
      { timeoutMs: 20_000, what: 'the book to be ingested' },
    );
    return {
      service,
      target: {
        name: 'odds-passthrough',
        field: 'error',
        healthPath: '/healthz',
        surface: {
          key,
          streamPath: '/v1/book/data',
          routes: [
            '/v1/book/',
            '/v1/book/sports',
            '/v1/book/leagues',
            `/v1/book/leagues?sport=${SOCCER}`,
            `/v1/book/matches?sport=${SOCCER}&league=1980`,
            `/v1/book/odds?match=${MATCH}`,
            '/v1/book/odds?match=1',
            '/v1/book/odds',
            '/healthz',
            '/readyz',
            '/metrics',
            '/v1/book/docs',
          ],
        },
        probe: {
          message: JSON.stringify({ action: 'subscribe', match: MATCH }),
          answers: (frame) => frame.type === 'snapshot' && frame.match_id === MATCH,
        },
      },
    };
  });

  afterAll(async () => {
    await book.stop();
    await stack?.drop();
  });
});
