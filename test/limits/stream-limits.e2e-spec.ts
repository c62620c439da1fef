import type { INestApplication } from '@nestjs/common';
import { testCatalog } from '../fixtures-live/catalog-factory';
import { bootAgainst, catalogPolls, matchIdOf } from '../fixtures-live/harness';
import { aMoneyline } from '../odds-passthrough/sportsbook-factory';
import { FUTURE, MATCH, SOCCER, seedBook, TENNIS, TENNIS_MATCH } from '../odds-passthrough/book-fixture';
import { bootOdds } from '../support/apps';
import { FakeLivescores, soccerState } from '../support/fake-livescores';
import { FakeSportsbook } from '../support/fake-sportsbook';
import { waitFor } from '../support/wait-for';
import { untilMatchServed } from '../streams/support/book-served';
import { type IsolatedStack, isolatedStack } from '../streams/support/isolated-stack';
import { type Frame, listen, refusedHandshake, StreamClient } from '../streams/support/stream-client';

/** Two sockets per key and two match subscriptions per socket, so the limits are reached at once. */
const LIMITS = { STREAM_MAX_CONNECTIONS_PER_KEY: '2', STREAM_MAX_SUBSCRIPTIONS: '2' };

/**
 * Opens sockets of `key` until the limit, checks that one more is refused with
 * 429 and the service's error body, that another key is not affected, and
 * that a socket closing makes room again.
 */
async function checkConnectionLimit(
  open: (key: string) => Promise<StreamClient>,
  url: (key: string) => string,
  key: string,
  otherKey: string,
  body: Record<string, string>,
): Promise<void> {
  const first = await open(key);
  await open(key);
  await expect(refusedHandshake(url(key))).resolves.toEqual({ status: 429, body });
  expect((await open(otherKey)).isOpen).toBe(true);
  first.close();
  await first.closed();
  await waitFor(
    async () => {
      try {
        await open(key);
        return true;
      } catch {
        return false;
      }
    },
    { timeoutMs: 5_000, what: 'a socket of the key to be accepted again' },
  );
}

describe('stream limits of fixtures-live', () => {
  const catalog = testCatalog();
  const fake = new FakeLivescores();
  const clients: StreamClient[] = [];
  let app: INestApplication;
  let stack: IsolatedStack;
  let url: string;
  let key: string;
  let otherKey: string;
  const ids = { arsChe: 0, livTot: 0, t20: 0 };
  let goals = 0;

  const streamUrl = (forKey: string) => `${url}/v1/stream?key=${forKey}`;
  async function open(forKey: string): Promise<StreamClient> {
    const client = await StreamClient.open(streamUrl(forKey));
    clients.push(client);
    return client;
  }
  const isSnapshotOf = (match: number, home: number) => (frame: Frame) =>
    frame.op === 'snapshot' &&
    (frame.data as { match_id: number; score: { home: number } }).match_id === match &&
    (frame.data as { score: { home: number } }).score.home === home;

  beforeAll(async () => {
    stack = await isolatedStack('fixtures_limits');
    fake.setCatalog(catalog.sports);
    await fake.start();
    ({ app } = await bootAgainst(fake, { env: { ...stack.env, ...LIMITS, ROLE: 'all' } }));
    url = await listen(app);
    await catalogPolls(app);
    for (const name of Object.keys(ids) as Array<keyof typeof ids>) {
      ids[name] = await matchIdOf(app, catalog.ids[name].id);
    }
    [key, otherKey] = await Promise.all([
      stack.issueKey({ sports: 'soccer,cricket', scopes: 'live_scores_statistics' }),
      stack.issueKey({ sports: 'soccer,cricket', scopes: 'live_scores_statistics' }),
    ]);
    await waitFor(() => fake.liveClients > 0, { timeoutMs: 10_000, what: 'the live feed to connect' });
  }, 120_000);

  afterAll(async () => {
    for (const client of clients) client.close();
    await app?.close();
    await fake.stop();
    await stack?.drop();
  });

  afterEach(() => {
    for (const client of clients.splice(0)) client.close();
  });

  it('refuses one socket more than STREAM_MAX_CONNECTIONS_PER_KEY with 429 and {"detail"}', async () => {
    await checkConnectionLimit(open, streamUrl, key, otherKey, { detail: 'connection limit reached' });
  });

  it('answers one subscription more than STREAM_MAX_SUBSCRIPTIONS with an error frame; the others deliver', async () => {
    const client = await open(otherKey);
    client.send({ action: 'subscribe', match_id: ids.arsChe });
    client.send({ action: 'subscribe', match_id: ids.livTot });
    client.send({ action: 'subscribe', match_id: ids.t20 });
    const refusal = await client.next((frame) => frame.op === 'error');
    expect(refusal).toEqual({ op: 'error', error: 'subscription limit reached' });
    goals += 1;
    fake.push(catalog.ids.arsChe.stat_id, soccerState({ score: { home: goals, away: 0 } }));
    await client.next(isSnapshotOf(ids.arsChe, goals));
    goals += 1;
    fake.push(catalog.ids.livTot.stat_id, soccerState({ score: { home: goals, away: 0 } }));
    await client.next(isSnapshotOf(ids.livTot, goals));
    expect(client.frames.filter((frame) => frame.op === 'error')).toHaveLength(1);
    expect(client.isOpen).toBe(true);
  });
});

describe('stream limits of odds-passthrough', () => {
  const book = new FakeSportsbook();
  const clients: StreamClient[] = [];
  let app: INestApplication;
  let stack: IsolatedStack;
  let url: string;
  let key: string;
  let otherKey: string;

  const streamUrl = (forKey: string) => `${url}/v1/book/data?key=${forKey}`;
  async function open(forKey: string): Promise<StreamClient> {
    const client = await StreamClient.open(streamUrl(forKey));
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    stack = await isolatedStack('odds_limits');
    await book.start();
    seedBook(book);
    [key, otherKey] = await Promise.all([
      stack.issueKey({ scopes: 'odds', grants: [`book=${SOCCER},${TENNIS}`] }),
      stack.issueKey({ scopes: 'odds', grants: [`book=${SOCCER},${TENNIS}`] }),
    ]);
    ({ app } = await bootOdds({
      env: { ...stack.env, ...LIMITS, BOOK_UPSTREAM_URL: book.url, BOOK_POLL_MS: '200', ROLE: 'all' },
    }));
    url = await listen(app);
    const warm = await open(otherKey);
    await untilMatchServed(warm, TENNIS_MATCH);
    warm.close();
    await warm.closed();
  }, 120_000);

  afterAll(async () => {
    for (const client of clients) client.close();
    await app?.close();
    await book.stop();
    await stack?.drop();
  });

  afterEach(() => {
    for (const client of clients.splice(0)) client.close();
  });

  it('refuses one socket more than STREAM_MAX_CONNECTIONS_PER_KEY with 429 and {"error"}', async () => {
    await checkConnectionLimit(open, streamUrl, key, otherKey, { error: 'connection limit reached' });
  });

  it('answers one subscription more than STREAM_MAX_SUBSCRIPTIONS with an error frame; the others deliver', async () => {
    const client = await open(otherKey);
    client.send({ action: 'subscribe', match: MATCH });
    client.send({ action: 'subscribe', match: TENNIS_MATCH });
    await client.next((frame) => frame.type === 'snapshot' && frame.match_id === MATCH);
    await client.next((frame) => frame.type === 'snapshot' && frame.match_id === TENNIS_MATCH);
    client.send({ action: 'subscribe', match: 1609990001 });
    const refusal = await client.next((frame) => frame.type === 'error');
    expect(refusal).toEqual({ type: 'error', error: 'subscription limit reached' });

    const from = client.frames.length;
    book.putMarket(
      SOCCER,
      aMoneyline({
        cutoff_at: FUTURE,
        prices: [
          { designation: 'home', price: 171 },
          { designation: 'away', price: 181 },
          { designation: 'draw', price: 241 },
        ],
      }),
    );
    await client.next((frame) => frame.type === 'update' && frame.match_id === MATCH, { from });
    expect(client.isOpen).toBe(true);
  });
});
