import { testCatalog } from '../fixtures-live/catalog-factory';
import { MATCH, moneylineWithHomePrice, seedBook, SOCCER } from '../odds-passthrough/book-fixture';
import { FakeLivescores, soccerState } from '../support/fake-livescores';
import { FakeSportsbook } from '../support/fake-sportsbook';
import { PrivateNats } from '../support/private-nats';
import { type ServiceProcess, startService } from '../support/service-process';
import { storedId } from '../support/stored-id';
import { waitFor } from '../support/wait-for';
import { type IsolatedStack, isolatedStack } from '../streams/support/isolated-stack';
import { type Frame, StreamClient } from '../streams/support/stream-client';

/** How long NATS stays down: long enough for reconnect backoff to grow past its first steps. */
const OUTAGE_MS = 3_000;
const CLIENTS = 3;

/**
 * A separate ingest and api process of each service on a NATS of the test's
 * own, which is killed (SIGKILL) and started again while the provider keeps
 * changing. Every stream client must get its next change within 1 s of NATS
 * answering again, on the socket it already had.
 */
describe('NATS killed and restarted under load', () => {
  const nats = new PrivateNats();
  const services: ServiceProcess[] = [];
  const clients: StreamClient[] = [];
  let stack: IsolatedStack | undefined;
  let pusher: NodeJS.Timeout | undefined;

  beforeAll(async () => {
    await nats.start();
  });

  afterEach(async () => {
    clearInterval(pusher);
    for (const client of clients.splice(0)) client.close();
    await Promise.all(services.splice(0).map((service) => service.stop()));
    await stack?.drop();
    stack = undefined;
    if (!nats.isRunning()) await nats.start();
  });

  afterAll(async () => {
    await nats.dispose();
  });

  async function restartNats(): Promise<{ stoppedAt: number; answeredAt: number }> {
    await nats.stop('SIGKILL');
    const stoppedAt = Date.now();
    await outage(OUTAGE_MS);
    const answeredAt = await nats.start();
    return { stoppedAt, answeredAt };
  }

  /** Per client: ms from NATS answering to the first frame after the outage began. */
  async function resumeDelays(
    isChange: (frame: Frame) => boolean,
    { stoppedAt, answeredAt }: { stoppedAt: number; answeredAt: number },
  ): Promise<number[]> {
    const firstAfter = (client: StreamClient) =>
      client.frames.findIndex((frame, index) => client.receivedAt[index] > stoppedAt && isChange(frame));
    await waitFor(() => clients.every((client) => firstAfter(client) >= 0), {
      timeoutMs: 15_000,
      what: 'every client to get a change after the restart',
    });
    return clients.map((client) => client.receivedAt[firstAfter(client)] - answeredAt);
  }

  it('fixtures-live: the next live state reaches every subscriber within 1 s, no socket drops', async () => {
    stack = await isolatedStack('nats_fixtures');
    const catalog = testCatalog();
    const provider = new FakeLivescores();
    provider.setCatalog(catalog.sports);
    await provider.start();
    try {
      const env = {
        ...stack.env,
        NATS_URL: nats.url,
        FIXTURES_UPSTREAM_URL: provider.url,
        FIXTURES_CATALOG_POLL_MS: '1000',
      };
      services.push(await startService('fixtures-live', '/v1/health/ready', { ...env, ROLE: 'ingest' }));
      const api = await startService('fixtures-live', '/v1/health/ready', { ...env, ROLE: 'api' });
      services.push(api);
      const key = await stack.issueKey({ sports: 'soccer', scopes: 'live_scores_statistics' });
      const matchId = await storedId(
        stack.env.DATABASE_URL,
        'SELECT id FROM fixtures.matches WHERE provider_id = $1',
        [catalog.ids.arsChe.id],
        'the catalog to be stored',
      );
      await waitFor(() => provider.liveClients > 0, { timeoutMs: 10_000, what: 'the live feed to connect' });

      for (let i = 0; i < CLIENTS; i += 1) {
        const client = await StreamClient.open(`${api.url.replace('http', 'ws')}/v1/stream?key=${key}`);
        client.send({ action: 'subscribe', match_id: matchId });
        clients.push(client);
      }
      let goals = 0;
      pusher = setInterval(() => {
        goals += 1;
        provider.push(catalog.ids.arsChe.stat_id, soccerState({ score: { home: goals, away: 0 } }));
      }, 50);
      const isState = (frame: Frame) =>
        (frame.op === 'snapshot' || frame.op === 'update') &&
        (frame.data as { match_id: number }).match_id === matchId;
      await Promise.all(clients.map((client) => client.next(isState)));

      const restart = await restartNats();
      const delays = await resumeDelays(isState, restart);
      report('fixtures-live', delays);
      expect(Math.max(...delays)).toBeLessThan(1_000);
      expect(clients.map((client) => client.closeCode)).toEqual(clients.map(() => undefined));
    } finally {
      clearInterval(pusher);
      await provider.stop();
    }
  }, 120_000);

  it('odds-passthrough: the next price reaches every subscriber within 1 s, no socket drops', async () => {
    stack = await isolatedStack('nats_odds');
    const book = new FakeSportsbook();
    await book.start();
    seedBook(book);
    try {
      const env = { ...stack.env, NATS_URL: nats.url, BOOK_UPSTREAM_URL: book.url, BOOK_POLL_MS: '100' };
      services.push(await startService('odds-passthrough', '/readyz', { ...env, ROLE: 'ingest' }));
      const api = await startService('odds-passthrough', '/readyz', { ...env, ROLE: 'api' });
      services.push(api);
      const key = await stack.issueKey({ scopes: 'odds', grants: [`book=${SOCCER}`] });

      const isPrice = (frame: Frame) =>
        (frame.type === 'snapshot' || frame.type === 'update') && frame.match_id === MATCH;
      for (let i = 0; i < CLIENTS; i += 1) {
        const client = await StreamClient.open(`${api.url.replace('http', 'ws')}/v1/book/data?key=${key}`);
        clients.push(client);
        await client.sendUntil({ action: 'subscribe', match: MATCH }, isPrice, 'a snapshot of the match');
      }
      let price = 100;
      pusher = setInterval(() => {
        price += 1;
        book.putMarket(SOCCER, moneylineWithHomePrice(price));
      }, 50);
      await Promise.all(
        clients.map((client) => client.next((frame) => frame.type === 'update' && isPrice(frame))),
      );

      const restart = await restartNats();
      const delays = await resumeDelays(isPrice, restart);
      report('odds-passthrough', delays);
      expect(Math.max(...delays)).toBeLessThan(1_000);
      expect(clients.map((client) => client.closeCode)).toEqual(clients.map(() => undefined));
    } finally {
      clearInterval(pusher);
      await book.stop();
    }
  }, 120_000);
});

/** The outage itself: a length of time is the scenario here, not a wait for a condition. */
function outage(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function report(service: string, delays: number[]): void {
  process.stdout.write(
    `nats-restart ${JSON.stringify({ service, outageMs: OUTAGE_MS, delaysMs: delays })}\n`,
  );
}
