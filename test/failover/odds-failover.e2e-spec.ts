import { MATCH, moneylineWithHomePrice, seedBook, SOCCER } from '../odds-passthrough/book-fixture';
import { FakeSportsbook } from '../support/fake-sportsbook';
import { type ServiceProcess, startService } from '../support/service-process';
import { type IsolatedStack, isolatedStack } from '../streams/support/isolated-stack';
import { type Frame, StreamClient } from '../streams/support/stream-client';
import {
  expectPositionsKept,
  expectResumeFillsGaps,
  type FailoverRun,
  itTakesOver,
} from './support/failover-run';
import { type GapSummary, IngestCluster } from './support/ingest-cluster';

interface Selection {
  market_key: string;
  bet_name: string;
  price: number;
  version: number;
}

/** Below every home price the test sets, above the fixed away and draw prices. */
const FIRST_HOME_PRICE = 300;

/**
 * Two odds-passthrough ingests and one api replica on real PostgreSQL and
 * NATS, the book moving the match's home price every 50 ms (polled every
 * 100 ms). The leader of the book's lease is killed (-9), stopped (SIGTERM)
 * or cut from PostgreSQL or NATS, five times each: the standby takes over,
 * the subscriber sees the next price within 5 s on the socket it had,
 * `seq` only grows, each `seq` and each market version has one content,
 * and a resume from before all takeovers brings every change.
 */
describe('odds-passthrough ingest failover', () => {
  let stack: IsolatedStack;
  let book: FakeSportsbook;
  let cluster: IngestCluster;
  let api: ServiceProcess;
  let run: FailoverRun;
  let key: string;
  let price = FIRST_HOME_PRICE;
  let pusher: NodeJS.Timeout | undefined;
  const summaries: Record<string, Record<string, GapSummary>> = {};

  const isPrice = (frame: Frame) =>
    (frame.type === 'snapshot' || frame.type === 'update') && frame.match_id === MATCH;
  const selections = (frame: Frame) => (frame.selections ?? []) as Selection[];

  async function subscriber(): Promise<StreamClient> {
    const client = await StreamClient.open(`${api.url.replace('http', 'ws')}/v1/book/data?key=${key}`);
    await client.sendUntil({ action: 'subscribe', match: MATCH }, isPrice, 'a snapshot of the match');
    return client;
  }

  beforeAll(async () => {
    stack = await isolatedStack('failover_odds');
    book = new FakeSportsbook();
    await book.start();
    seedBook(book);
    book.putMarket(SOCCER, moneylineWithHomePrice(price));
    const env = { ...stack.env, BOOK_UPSTREAM_URL: book.url, BOOK_POLL_MS: '100' };
    cluster = new IngestCluster({
      service: 'odds-passthrough',
      readyPath: '/readyz',
      leaseKey: 'odds-passthrough.book',
      env,
    });
    await cluster.add();
    await cluster.leader(10_000);
    await cluster.add();
    api = await startService('odds-passthrough', '/readyz', { ...env, ROLE: 'api' });
    key = await stack.issueKey({ scopes: 'odds', grants: [`book=${SOCCER}`] });
    const client = await subscriber();
    pusher = setInterval(() => book.putMarket(SOCCER, moneylineWithHomePrice(++price)), 50);
    await client.next((frame) => isPrice(frame) && frame.type === 'update', { what: 'a first price move' });
    run = {
      cluster,
      client,
      summaries,
      changedAfterLoss: () => {
        const atLoss = price;
        return (frame) => isPrice(frame) && selections(frame).some((selection) => selection.price > atLoss);
      },
    };
  }, 90_000);

  afterAll(async () => {
    clearInterval(pusher);
    run?.client.close();
    await api?.stop();
    await cluster?.stopAll();
    await book?.stop();
    await stack?.drop();
    process.stdout.write(`odds-failover ${JSON.stringify(summaries)}\n`);
  }, 60_000);

  itTakesOver(() => run, 'book');

  it('kept seq and versions growing, one content per seq and per version, and a resume fills every gap', async () => {
    const live = expectPositionsKept(run.client, isPrice);
    const versions = new Map<string, { version: number; price: number }>();
    for (const frame of live) {
      for (const selection of selections(frame)) {
        const id = `${selection.market_key}/${selection.bet_name}`;
        const last = versions.get(id);
        if (last) {
          expect(selection.version).toBeGreaterThanOrEqual(last.version);
          if (selection.version === last.version) expect(selection.price).toBe(last.price);
        }
        versions.set(id, { version: selection.version, price: selection.price });
      }
    }
    const resumed = await StreamClient.open(`${api.url.replace('http', 'ws')}/v1/book/data?key=${key}`);
    try {
      await expectResumeFillsGaps(resumed, live, isPrice, (resumeAfter) =>
        resumed.send({ action: 'subscribe', match: MATCH, resume_after: resumeAfter }),
      );
    } finally {
      resumed.close();
    }
  });
});
