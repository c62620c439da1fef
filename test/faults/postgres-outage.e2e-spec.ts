import { Client } from 'pg';
import { testCatalog } from '../fixtures-live/catalog-factory';
import { MATCH, moneylineWithHomePrice, seedBook, SOCCER } from '../odds-passthrough/book-fixture';
import { FakeLivescores, soccerState } from '../support/fake-livescores';
import { FakeSportsbook } from '../support/fake-sportsbook';
import { runKeys } from '../support/keys-cli';
import { PrivatePostgres } from '../support/private-postgres';
import { type ServiceProcess, startService } from '../support/service-process';
import { runSubjectPrefix } from '../support/test-env';
import { storedId } from '../support/stored-id';
import { waitFor } from '../support/wait-for';
import { type Frame, StreamClient } from '../streams/support/stream-client';

const DATABASE_UNAVAILABLE = { detail: 'database unavailable' };

/**
 * fixtures-live (a separate ingest and api process) on a PostgreSQL of the
 * test's own, which is stopped and started while the provider keeps pushing.
 * What the api holds in memory is still answered, what needs the database is
 * 503 in the service's shape, the stream never notices, and the states the
 * ingest published during the outage are stored once PostgreSQL is back.
 */
describe('fixtures-live through a PostgreSQL outage', () => {
  const pg = new PrivatePostgres();
  const provider = new FakeLivescores();
  const catalog = testCatalog();
  const services: ServiceProcess[] = [];
  let client: StreamClient | undefined;
  let databaseUrl = '';
  let env: Record<string, string> = {};

  beforeAll(async () => {
    await pg.start();
    databaseUrl = await pg.createMigratedDatabase('outage');
    provider.setCatalog(catalog.sports);
    await provider.start();
    env = {
      DATABASE_URL: databaseUrl,
      NATS_SUBJECT_PREFIX: `${runSubjectPrefix() || 'it'}_pg_outage`,
      FIXTURES_UPSTREAM_URL: provider.url,
      FIXTURES_CATALOG_POLL_MS: '1000',
    };
  }, 60_000);

  afterAll(async () => {
    client?.close();
    await Promise.all(services.map((service) => service.stop()));
    await provider.stop();
    await pg.dispose();
  });

  async function issueKey(): Promise<string> {
    const account = await runKeys(['account:create', '--name', 'outage', '--sports', 'soccer'], env);
    if (account.code !== 0) throw new Error(`account:create failed: ${account.stdout}`);
    const issued = await runKeys(
      [
        'key:issue',
        '--account',
        String(account.json.account),
        '--scopes',
        'fixtures,live_scores_statistics,final_scores',
      ],
      env,
    );
    if (issued.code !== 0) throw new Error(`key:issue failed: ${issued.stdout}`);
    return String(issued.json.key);
  }

  function idOf(sql: string, value: string): Promise<number> {
    return storedId(databaseUrl, sql, [value], `the catalog row of ${value}`);
  }

  async function storedHomeScore(matchId: number): Promise<number | null> {
    const db = new Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      const rows = await db.query<{ home: number }>(
        `SELECT (snapshot->'score'->>'home')::int AS home FROM fixtures.live_snapshots WHERE match_id = $1`,
        [matchId],
      );
      return rows.rows[0]?.home ?? null;
    } finally {
      await db.end();
    }
  }

  it('answers from memory, 503 for the rest, keeps streaming, and stores what it published', async () => {
    services.push(await startService('fixtures-live', '/v1/health/ready', { ...env, ROLE: 'ingest' }));
    const api = await startService('fixtures-live', '/v1/health/ready', { ...env, ROLE: 'api' });
    services.push(api);
    const live = await idOf('SELECT id FROM fixtures.matches WHERE provider_id = $1', catalog.ids.arsChe.id);
    const halted = await idOf(
      'SELECT id FROM fixtures.matches WHERE provider_id = $1',
      catalog.ids.livTot.id,
    );
    const league = await idOf('SELECT id FROM fixtures.leagues WHERE provider_id = $1', catalog.ids.epl);
    const soccer = await idOf('SELECT id FROM fixtures.sports WHERE provider_key = $1', 'soccer');
    await waitFor(() => provider.liveClients > 0, { timeoutMs: 10_000, what: 'the live feed to connect' });

    let key = await issueKey();
    const get = async (path: string) => {
      const response = await fetch(`${api.url}/v1${path}`, { headers: { 'X-API-Key': key } });
      return { status: response.status, body: await response.json() };
    };
    const homeOf = (body: unknown) => (body as { score?: { home: number } }).score?.home;

    provider.push(catalog.ids.livTot.stat_id, soccerState({ status: '1h' }));
    provider.push(catalog.ids.livTot.stat_id, soccerState({ status: 'ht' }));
    provider.push(catalog.ids.arsChe.stat_id, soccerState({ score: { home: 1, away: 0 } }));
    await waitFor(async () => homeOf((await get(`/matches/${live}/live`)).body) === 1, {
      timeoutMs: 15_000,
      what: 'the first live state over REST',
    });
    await waitFor(async () => (await get(`/matches/${halted}/result`)).status === 200, {
      timeoutMs: 15_000,
      what: 'the half-time result',
    });
    client = await StreamClient.open(`${api.url.replace('http', 'ws')}/v1/stream?key=${key}`);
    client.send({ action: 'subscribe', match_id: live });
    const isState = (home: number) => (frame: Frame) =>
      (frame.data as { match_id?: number; score?: { home: number } } | undefined)?.match_id === live &&
      (frame.data as { score: { home: number } }).score.home === home;
    await client.next(isState(1));

    const remembered = [
      '/sports',
      `/leagues?sport=${soccer}`,
      `/matches?league=${league}`,
      `/matches/${live}`,
      `/matches/${halted}/result`,
    ];
    const before = new Map<string, unknown>();
    for (const path of remembered) before.set(path, (await get(path)).body);

    // A key decision is cached for AUTH_CACHE_TTL_MS (15 s): a key first used now outlives the outage.
    // Its own `key:issue` announcement may land while the first lookup runs, and a lookup overtaken
    // by an invalidation is not cached: a request that needed no lookup shows it is.
    key = await issueKey();
    const lookups = async () => {
      const text = await (await fetch(`${api.url}/metrics`)).text();
      const count = (name: string) => Number(new RegExp(`^${name} (\\d+)`, 'm').exec(text)?.[1] ?? NaN);
      return { hits: count('auth_cache_hits_total'), misses: count('auth_cache_misses_total') };
    };
    await waitFor(
      async () => {
        const before = await lookups();
        expect((await get('/sports')).status).toBe(200);
        const after = await lookups();
        return after.misses === before.misses && after.hits > before.hits;
      },
      { timeoutMs: 5_000, what: "the new key's decision cached" },
    );
    await pg.stop();

    // The stream and REST carry a state pushed while PostgreSQL is down.
    provider.push(catalog.ids.arsChe.stat_id, soccerState({ score: { home: 2, away: 0 } }));
    await client.next(isState(2));
    await waitFor(async () => homeOf((await get(`/matches/${live}/live`)).body) === 2, {
      timeoutMs: 5_000,
      what: 'the state pushed during the outage over REST',
    });
    for (const path of remembered)
      expect({ path, ...(await get(path)) }).toEqual({ path, status: 200, body: before.get(path) });
    const readiness = await fetch(`${api.url}/v1/health/ready`);
    expect({ status: readiness.status, body: await readiness.json() }).toEqual({
      status: 200,
      body: { status: 'ready', database: 'down', nats: 'connected' },
    });
    const neverRead = await get(`/teams?league=${league}`);
    expect(neverRead).toEqual({ status: 503, body: DATABASE_UNAVAILABLE });

    const statuses: Record<number, number> = {};
    const paths = [
      ...remembered,
      `/matches/${live}/live`,
      `/teams?league=${league}`,
      `/matches/${halted}`,
      `/leagues/active?sport=${soccer}`,
    ];
    for (let i = 0; i < 200; i += 1) {
      const path = paths[i % paths.length];
      const answer = await get(path);
      statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      if (answer.status >= 500)
        expect({ path, ...answer }).toEqual({ path, status: 503, body: DATABASE_UNAVAILABLE });
    }
    process.stdout.write(`postgres-outage ${JSON.stringify({ service: 'fixtures-live', statuses })}\n`);

    await pg.start();
    await waitFor(async () => (await get(`/teams?league=${league}`)).status === 200, {
      timeoutMs: 15_000,
      what: 'answers that need PostgreSQL to come back',
    });
    await waitFor(async () => (await storedHomeScore(live)) === 2, {
      timeoutMs: 15_000,
      what: 'the state published during the outage to be stored',
    });
    expect(homeOf((await get(`/matches/${live}/live`)).body)).toBe(2);
    expect(client.closeCode).toBeUndefined();
  }, 120_000);
});

/**
 * odds-passthrough (a separate ingest and api process) through the same kind
 * of outage: the book is served from memory, prices keep flowing to the
 * stream and REST, and the ingest stores them once PostgreSQL is back.
 */
describe('odds-passthrough through a PostgreSQL outage', () => {
  const pg = new PrivatePostgres();
  const book = new FakeSportsbook();
  const services: ServiceProcess[] = [];
  let client: StreamClient | undefined;
  let databaseUrl = '';
  let env: Record<string, string> = {};

  beforeAll(async () => {
    await pg.start();
    databaseUrl = await pg.createMigratedDatabase('outage_odds');
    await book.start();
    seedBook(book);
    env = {
      DATABASE_URL: databaseUrl,
      NATS_SUBJECT_PREFIX: `${runSubjectPrefix() || 'it'}_pg_outage_odds`,
      BOOK_UPSTREAM_URL: book.url,
      BOOK_POLL_MS: '200',
    };
  }, 60_000);

  afterAll(async () => {
    client?.close();
    await Promise.all(services.map((service) => service.stop()));
    await book.stop();
    await pg.dispose();
  });

  function setHomePrice(price: number): void {
    book.putMarket(SOCCER, moneylineWithHomePrice(price));
  }

  async function storedPrice(price: number): Promise<boolean> {
    const db = new Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      const rows = await db.query(
        `SELECT 1 FROM odds.markets WHERE match_id = $1
           AND jsonb_path_exists(selections, '$[*] ? (@.price == $p)', jsonb_build_object('p', $2::int))`,
        [MATCH, price],
      );
      return (rows.rowCount ?? 0) > 0;
    } finally {
      await db.end();
    }
  }

  it('serves the book from memory, keeps prices flowing, and stores them once PostgreSQL is back', async () => {
    services.push(await startService('odds-passthrough', '/readyz', { ...env, ROLE: 'ingest' }));
    const api = await startService('odds-passthrough', '/readyz', { ...env, ROLE: 'api' });
    services.push(api);
    const account = await runKeys(['account:create', '--name', 'outage', '--sports', ''], env);
    const issued = await runKeys(
      [
        'key:issue',
        '--account',
        String(account.json.account),
        '--scopes',
        'odds',
        '--grant',
        `book=${SOCCER}`,
      ],
      env,
    );
    const key = String(issued.json.key);
    const get = async (path: string) => {
      const response = await fetch(`${api.url}/v1/book${path}`, { headers: { 'X-API-Key': key } });
      return { status: response.status, body: await response.json() };
    };
    const hasPrice = (body: unknown, price: number) =>
      JSON.stringify(body).includes(`"price":${price},`) ||
      JSON.stringify(body).includes(`"price":${price}}`);

    setHomePrice(301);
    await waitFor(async () => hasPrice((await get(`/odds?match=${MATCH}`)).body, 301), {
      timeoutMs: 20_000,
      what: 'the book to be ingested',
    });
    client = await StreamClient.open(`${api.url.replace('http', 'ws')}/v1/book/data?key=${key}`);
    client.send({ action: 'subscribe', match: MATCH });
    await client.next((frame) => frame.type === 'snapshot');
    const paths = [
      '/sports',
      `/leagues?sport=${SOCCER}`,
      `/matches?sport=${SOCCER}&league=1980`,
      `/odds?match=${MATCH}`,
    ];
    const before = new Map<string, unknown>();
    for (const path of paths) before.set(path, (await get(path)).body);
    // A key decision is cached for AUTH_CACHE_TTL_MS (15 s): the outage below is shorter.

    await pg.stop();

    setHomePrice(302);
    await client.next((frame) => frame.type === 'update' && hasPrice(frame, 302));
    await waitFor(async () => hasPrice((await get(`/odds?match=${MATCH}`)).body, 302), {
      timeoutMs: 5_000,
      what: 'the price set during the outage over REST',
    });
    const statuses: Record<number, number> = {};
    for (let i = 0; i < 100; i += 1) {
      const path = paths[i % paths.length];
      const answer = await get(path);
      statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      expect({ path, status: answer.status }).toEqual({ path, status: 200 });
    }
    expect((await get('/sports')).body).toEqual(before.get('/sports'));
    process.stdout.write(`postgres-outage ${JSON.stringify({ service: 'odds-passthrough', statuses })}\n`);

    await pg.start();
    await waitFor(() => storedPrice(302), {
      timeoutMs: 15_000,
      what: 'the price published during the outage to be stored',
    });
    expect(client.closeCode).toBeUndefined();
  }, 120_000);
});
