import type { INestApplication } from '@nestjs/common';
import { Client } from 'pg';
import request from 'supertest';
import { aMoneyline } from './sportsbook-factory';
import { bootOdds, http } from '../support/apps';
import { FakeSportsbook } from '../support/fake-sportsbook';
import { TcpProxy, hostAndPort, withHostPort } from '../support/tcp-proxy';
import { NATS_URL } from '../support/test-env';
import { waitFor } from '../support/wait-for';
import { type IsolatedStack, isolatedStack } from '../streams/support/isolated-stack';
import { FUTURE, MATCH, SOCCER, TENNIS, seedBook } from './book-fixture';

interface Odds {
  selections: { market_key: string; bet_name: string; price: number; version: number }[];
}

const homePrice = (odds: Odds | undefined) =>
  odds?.selections.find((s) => s.market_key === 's;0;m' && s.bet_name === 'Arsenal')?.price;

function moneyline(home: number) {
  return aMoneyline({
    cutoff_at: FUTURE,
    prices: [
      { designation: 'home', price: home },
      { designation: 'away', price: 190 },
      { designation: 'draw', price: 240 },
    ],
  });
}

/** Replicas and books: two books side by side, and an api replica that loses NATS and catches up. */
describe('odds replicas and books', () => {
  const main = new FakeSportsbook();
  const alt = new FakeSportsbook();
  const apps: INestApplication[] = [];
  let stack: IsolatedStack;
  let bookKey: string;
  let altKey: string;

  async function boot(env: Record<string, string>): Promise<INestApplication> {
    const { app } = await bootOdds({
      env: { ...stack.env, BOOK_POLL_MS: '200', BOOK_RELIST_MS: '1000', ...env },
    });
    apps.push(app);
    return app;
  }

  async function odds(app: INestApplication, prefix = '/v1/book', key = bookKey): Promise<Odds | undefined> {
    const response = await request(http(app))
      .get(`${prefix}/odds`)
      .query({ match: MATCH })
      .set('X-API-Key', key);
    return response.status === 200 ? (response.body as Odds) : undefined;
  }

  beforeAll(async () => {
    stack = await isolatedStack('odds_replicas');
    await Promise.all([main.start(), alt.start()]);
    seedBook(main);
    seedBook(alt);
    alt.putMarket(SOCCER, moneyline(333));
    [bookKey, altKey] = await Promise.all([
      stack.issueKey({ scopes: 'odds', grants: [`book=${SOCCER},${TENNIS}`] }),
      stack.issueKey({ scopes: 'odds', grants: [`alt=${SOCCER}`] }),
    ]);
  }, 90_000);

  afterAll(async () => {
    for (const app of apps.reverse()) await app.close();
    await Promise.all([main.stop(), alt.stop()]);
    await stack?.drop();
  });

  it('serves several configured books, each with its own prefix, grant, data and OpenAPI document', async () => {
    const app = await boot({
      BOOKS: JSON.stringify([
        { name: 'book', upstream_url: main.url },
        { name: 'alt', prefix: '/v1/alt', grant: 'alt', upstream_url: alt.url },
      ]),
    });
    await waitFor(
      async () => homePrice(await odds(app)) === 150 && homePrice(await odds(app, '/v1/alt', altKey)) === 333,
      {
        timeoutMs: 10_000,
        what: 'both books to be ingested',
      },
    );
    const refused = await request(http(app)).get('/v1/alt/sports').set('X-API-Key', bookKey).expect(403);
    expect(refused.body).toEqual({ error: 'API key not permitted for sportsbook: alt' });
    await request(http(app)).get('/v1/book/sports').set('X-API-Key', altKey).expect(403);
    expect(
      (await request(http(app)).get('/v1/alt/sports').set('X-API-Key', altKey).expect(200)).body,
    ).toEqual([{ id: SOCCER, name: 'Soccer' }]);
    const routes = (await request(http(app)).get('/v1/alt/').expect(200)).body as { book: string };
    expect(routes.book).toBe('alt');
    const doc = (await request(http(app)).get('/v1/alt/docs-json').expect(200)).body as { paths: object };
    expect(Object.keys(doc.paths)).toContain('/v1/alt/odds');
    expect(Object.keys(doc.paths).every((path) => path.startsWith('/v1/alt'))).toBe(true);
    await app.close();
    apps.splice(apps.indexOf(app), 1);
  });

  it('catches up from shared state after its NATS link was cut while prices moved', async () => {
    await boot({ ROLE: 'ingest', BOOK_UPSTREAM_URL: main.url });
    const nats = hostAndPort(NATS_URL, 4222);
    const proxy = new TcpProxy(nats.host, nats.port);
    await proxy.start();
    let api: INestApplication | undefined;
    try {
      const replica = await boot({
        ROLE: 'api',
        BOOK_UPSTREAM_URL: main.url,
        NATS_URL: `nats://127.0.0.1:${proxy.port}`,
      });
      api = replica;
      main.putMarket(SOCCER, moneyline(151));
      await waitFor(async () => homePrice(await odds(replica)) === 151, {
        timeoutMs: 10_000,
        what: 'the api replica',
      });

      await proxy.cut();
      main.putMarket(SOCCER, moneyline(152));
      const db = new Client({ connectionString: stack.env.DATABASE_URL });
      await db.connect();
      try {
        await waitFor(
          async () => {
            const rows = await db.query<{ selections: { price: number }[] }>(
              `SELECT selections FROM odds.markets WHERE book = 'book' AND match_id = $1 AND market_key = 's;0;m'`,
              [MATCH],
            );
            return rows.rows[0]?.selections[0]?.price === 152;
          },
          { timeoutMs: 10_000, what: 'the ingest to store the change' },
        );
      } finally {
        await db.end();
      }
      // The replica missed the message...
      expect(homePrice(await odds(replica))).toBe(151);
      await proxy.restore();
      // ...and reloads from PostgreSQL once NATS is back.
      await waitFor(async () => homePrice(await odds(replica)) === 152, {
        timeoutMs: 15_000,
        what: 'the resync',
      });
    } finally {
      // Closed while its NATS link is up, so its connection drains normally.
      if (api) {
        await api.close();
        apps.splice(apps.indexOf(api), 1);
      }
      await proxy.cut();
    }
  });

  it('keeps serving and publishing changes while PostgreSQL is away, and writes them once it is back', async () => {
    const pg = hostAndPort(stack.env.DATABASE_URL, 5432);
    const proxy = new TcpProxy(pg.host, pg.port);
    await proxy.start();
    const app = await boot({
      BOOK_UPSTREAM_URL: main.url,
      DATABASE_URL: withHostPort(stack.env.DATABASE_URL, proxy.port),
    });
    try {
      main.putMarket(SOCCER, moneyline(161));
      await waitFor(async () => homePrice(await odds(app)) === 161, {
        timeoutMs: 10_000,
        what: 'the first change',
      });

      await proxy.cut();
      main.putMarket(SOCCER, moneyline(162));
      await waitFor(async () => homePrice(await odds(app)) === 162, {
        timeoutMs: 10_000,
        what: 'a change during the outage',
      });
      main.putMarket(SOCCER, moneyline(163));
      await waitFor(async () => homePrice(await odds(app)) === 163, {
        timeoutMs: 10_000,
        what: 'another change during the outage',
      });
      await proxy.restore();
      await waitFor(async () => (await storedHomePrice()) === 163, {
        timeoutMs: 15_000,
        what: 'the backlog to be written',
      });
    } finally {
      await app.close();
      apps.splice(apps.indexOf(app), 1);
      await proxy.cut();
    }
  });

  async function storedHomePrice(): Promise<number | undefined> {
    const db = new Client({ connectionString: stack.env.DATABASE_URL });
    await db.connect();
    try {
      const rows = await db.query<{ selections: { bet_name: string; price: number }[] }>(
        `SELECT selections FROM odds.markets WHERE book = 'book' AND match_id = $1 AND market_key = 's;0;m'`,
        [MATCH],
      );
      return rows.rows[0]?.selections.find((s) => s.bet_name === 'Arsenal')?.price;
    } finally {
      await db.end();
    }
  }
});
