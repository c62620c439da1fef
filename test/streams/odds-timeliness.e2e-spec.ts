import type { INestApplication } from '@nestjs/common';
import { aMatchup, aMoneyline } from '../odds-passthrough/sportsbook-factory';
import { FUTURE, MATCH, seedBook, SOCCER } from '../odds-passthrough/book-fixture';
import { bootOdds } from '../support/apps';
import { FakeSportsbook } from '../support/fake-sportsbook';
import { untilMatchServed } from './support/book-served';
import { type IsolatedStack, isolatedStack } from './support/isolated-stack';
import { type Frame, listen, StreamClient } from './support/stream-client';

const POLL_MS = 250;
/** Matchups are re-listed in full this often; a book-side change must not wait for it. */
const RELIST_MS = 5_000;
const NEW_MATCH = 1_601_300_001;

type Selection = { market_key: string; status: string };
const selectionsOf = (frame: Frame) => (frame.selections ?? []) as Selection[];

/** Book-side changes reach stream clients within two polls, and a new match arrives whole. */
describe('odds stream timeliness', () => {
  const book = new FakeSportsbook();
  const clients: StreamClient[] = [];
  let app: INestApplication | undefined;
  let stack: IsolatedStack;
  let url: string;
  let key: string;

  async function open(): Promise<StreamClient> {
    const client = await StreamClient.open(`${url}/v1/book/data?key=${key}`);
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    stack = await isolatedStack('odds_timely');
    await book.start();
    seedBook(book);
    key = await stack.issueKey({ scopes: 'odds', grants: [`book=${SOCCER}`] });
    ({ app } = await bootOdds({
      env: {
        ...stack.env,
        ROLE: 'all',
        BOOK_UPSTREAM_URL: book.url,
        BOOK_POLL_MS: String(POLL_MS),
        BOOK_RELIST_MS: String(RELIST_MS),
      },
    }));
    url = await listen(app);
    await untilMatchServed(await open(), MATCH);
  }, 60_000);

  afterAll(async () => {
    for (const client of clients) client.close();
    await app?.close();
    await book.stop();
    await stack?.drop();
  });

  it('locks the markets of a period the book suspends within two polls, and unlocks them as fast', async () => {
    // A market without a status of its own follows its period's.
    book.putMarket(SOCCER, aMoneyline({ cutoff_at: FUTURE, status: undefined, version: 2 }));
    const client = await open();
    client.send({ action: 'subscribe', match: MATCH });
    await client.next((frame) => frame.type === 'snapshot' && frame.match_id === MATCH);

    const periods = (status: string) => [
      { number: 0, status, cutoff_at: FUTURE },
      { number: 1, status: 'open', cutoff_at: FUTURE },
    ];
    const delays: number[] = [];
    // The book bumps a matchup's version with every change of it.
    for (const [status, expected, version] of [
      ['suspended', 'locked', 13],
      ['open', 'unlocked', 14],
    ] as const) {
      const from = client.frames.length;
      const changedAt = Date.now();
      book.putMatchup(SOCCER, aMatchup({ start_time: FUTURE, periods: periods(status), version }));
      const update = await client.next(
        (frame) =>
          frame.type === 'update' &&
          frame.match_id === MATCH &&
          selectionsOf(frame).some((selection) => selection.status === expected),
        { from, timeoutMs: 8_000, what: `markets ${expected} after the period went ${status}` },
      );
      delays.push(client.receivedAt[client.frames.indexOf(update)] - changedAt);
    }
    process.stdout.write(`odds-timeliness ${JSON.stringify({ pollMs: POLL_MS, lockDelaysMs: delays })}\n`);
    // Two poll intervals, and room for a poll that is already under way to finish.
    for (const delay of delays) expect(delay).toBeLessThan(2 * POLL_MS + 250);
  });

  it('announces a match that appears under subscribe_all with a snapshot that holds its markets', async () => {
    const client = await open();
    client.send({ action: 'subscribe_all' });
    await client.next((frame) => frame.type === 'snapshot' && frame.match_id === MATCH);
    const from = client.frames.length;
    book.putMatchup(
      SOCCER,
      aMatchup({
        id: NEW_MATCH,
        start_time: FUTURE,
        participants: [
          { id: NEW_MATCH * 10 + 1, alignment: 'home', name: 'Brentford' },
          { id: NEW_MATCH * 10 + 2, alignment: 'away', name: 'Fulham' },
        ],
        periods: [{ number: 0, status: 'open', cutoff_at: FUTURE }],
      }),
    );
    book.putMarket(SOCCER, aMoneyline({ matchup_id: NEW_MATCH, cutoff_at: FUTURE }));
    const first = await client.next((frame) => frame.match_id === NEW_MATCH, {
      from,
      timeoutMs: 8_000,
      what: 'the first frame of the new match',
    });
    expect(first.type).toBe('snapshot');
    expect(selectionsOf(first).length).toBeGreaterThan(0);
  });
});
