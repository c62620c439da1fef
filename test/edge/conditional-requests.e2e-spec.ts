import { testCatalog } from '../fixtures-live/catalog-factory';
import {
  MATCH,
  SOCCER,
  SPECIAL,
  TENNIS,
  TENNIS_MATCH,
  moneylineWithHomePrice,
  seedBook,
} from '../odds-passthrough/book-fixture';
import { aTotal } from '../odds-passthrough/sportsbook-factory';
import { cricketState, FakeLivescores } from '../support/fake-livescores';
import { FakeSportsbook } from '../support/fake-sportsbook';
import { type ServiceProcess, startService } from '../support/service-process';
import { storedId } from '../support/stored-id';
import { waitFor } from '../support/wait-for';
import { type IsolatedStack, isolatedStack } from '../streams/support/isolated-stack';

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

const STRONG_TAG = /^"[A-Za-z0-9_-]{27}"$/;

async function call(
  service: ServiceProcess,
  path: string,
  key: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<Answer> {
  const answer = await fetch(`${service.url}${path}`, { method, headers: { 'X-API-Key': key, ...headers } });
  return { status: answer.status, headers: answer.headers, text: await answer.text() };
}

/** Routes served without a key, so without the key's rate-limit headers. */
const KEYLESS_PATHS = new Set(['/v1/book/']);

/**
 * The whole contract of one route on one process: a tagged 200, then 304 for
 * the tag, a list holding it (weak form too) and `*`, 200 for another tag,
 * and HEAD alike. Headers set before the handler (the request id and the
 * key's rate-limit headers) stay on the 304.
 */
async function expectConditional(service: ServiceProcess, path: string, key: string): Promise<void> {
  const first = await call(service, path, key);
  expect({ path, status: first.status }).toEqual({ path, status: 200 });
  expect(first.headers.get('content-type')).toMatch(/^application\/json/);
  const tag = first.headers.get('etag') ?? '';
  expect(tag).toMatch(STRONG_TAG);
  expect(first.headers.get('cache-control')).toBe('private, no-cache');

  for (const held of [tag, `"stale", W/${tag}`, '*']) {
    const again = await call(service, path, key, { 'If-None-Match': held, 'X-Request-Id': 'cond-1' });
    expect({ path, held, status: again.status }).toEqual({ path, held, status: 304 });
    expect(again.text).toBe('');
    expect(again.headers.get('etag')).toBe(tag);
    expect(again.headers.get('x-request-id')).toBe('cond-1');
    for (const header of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'])
      expect({ path, header, value: again.headers.get(header) }).toEqual({
        path,
        header,
        value: KEYLESS_PATHS.has(path) ? null : (expect.stringMatching(/^\d+$/) as unknown),
      });
    expect(again.headers.get('content-length')).toBeNull();
  }
  const stale = await call(service, path, key, { 'If-None-Match': '"stale"' });
  expect(stale.status).toBe(200);
  expect(stale.text).toBe(first.text);
  expect(stale.headers.get('etag')).toBe(tag);

  const head = await call(service, path, key, {}, 'HEAD');
  expect(head.status).toBe(200);
  expect(head.text).toBe('');
  expect(head.headers.get('etag')).toBe(tag);
  expect(head.headers.get('cache-control')).toBe('private, no-cache');
  expect((await call(service, path, key, { 'If-None-Match': tag }, 'HEAD')).status).toBe(304);
}

/**
 * Waits until two processes answer the route with the same bytes, and checks
 * that they then give the same tag. Processes that serialise the same state
 * differently (field or list order) never converge and fail here.
 */
async function expectSameOnBoth(
  a: ServiceProcess,
  b: ServiceProcess,
  path: string,
  key: string,
): Promise<string> {
  let answers: Answer[] = [];
  try {
    await waitFor(
      async () => {
        answers = await Promise.all([call(a, path, key), call(b, path, key)]);
        return answers[0].status === 200 && answers[0].text === answers[1].text;
      },
      { timeoutMs: 15_000, intervalMs: 100, what: `equal bodies of ${path} on both processes` },
    );
  } catch (error) {
    throw new Error(`${(error as Error).message}\n A: ${answers[0]?.text}\n B: ${answers[1]?.text}`);
  }
  const tag = answers[0].headers.get('etag');
  expect(tag).toMatch(STRONG_TAG);
  expect(answers[1].headers.get('etag')).toBe(tag);
  return tag ?? '';
}

/** Waits until both processes tag the route with one tag other than `old`, and returns it. */
async function newTagOnBoth(
  a: ServiceProcess,
  b: ServiceProcess,
  path: string,
  key: string,
  old: string,
): Promise<string> {
  let tag = '';
  await waitFor(
    async () => {
      const [x, y] = await Promise.all([call(a, path, key), call(b, path, key)]);
      tag = x.headers.get('etag') ?? '';
      return x.status === 200 && tag !== old && y.headers.get('etag') === tag;
    },
    { timeoutMs: 15_000, intervalMs: 100, what: `a new tag of ${path} on both processes` },
  );
  return tag;
}

/**
 * Conditional requests on every JSON GET of both services, on real
 * processes against real PostgreSQL and NATS: each service runs an ingest
 * (ROLE=all, which builds its state from what it publishes) and an api
 * replica (ROLE=api, started after the data is stored, so it reads it from
 * PostgreSQL), and both must answer the same bytes, hence the same tag.
 */
describe('conditional requests', () => {
  describe('fixtures-live', () => {
    const catalog = testCatalog();
    const provider = new FakeLivescores();
    let stack: IsolatedStack;
    let ingest: ServiceProcess;
    let api: ServiceProcess;
    let key: string;
    let paths: string[];
    let livePath: string;

    beforeAll(async () => {
      stack = await isolatedStack('conditional_fixtures');
      provider.setCatalog(catalog.sports);
      await provider.start();
      const env = { ...stack.env, FIXTURES_UPSTREAM_URL: provider.url, FIXTURES_CATALOG_POLL_MS: '1000' };
      ingest = await startService('fixtures-live', '/v1/health/ready', { ...env, ROLE: 'all' });
      const id = (sql: string, param: string) => storedId(stack.env.DATABASE_URL, sql, [param], sql);
      const t20 = await id('SELECT id FROM fixtures.matches WHERE provider_id = $1', catalog.ids.t20.id);
      const arsChe = await id(
        'SELECT id FROM fixtures.matches WHERE provider_id = $1',
        catalog.ids.arsChe.id,
      );
      const epl = await id('SELECT id FROM fixtures.leagues WHERE provider_id = $1', catalog.ids.epl);
      const soccer = await id('SELECT id FROM fixtures.sports WHERE provider_key = $1', 'soccer');
      const cricket = await id('SELECT id FROM fixtures.sports WHERE provider_key = $1', 'cricket');
      provider.push(catalog.ids.t20.stat_id, cricketState({ format: 't20', status: 'innings_break' }));
      await storedId(
        stack.env.DATABASE_URL,
        'SELECT match_id AS id FROM fixtures.results WHERE match_id = $1 AND half_time IS NOT NULL',
        [t20],
        'the half-time result to be stored',
      );
      key = await stack.issueKey({
        sports: 'soccer,cricket',
        scopes: 'fixtures,live_scores,final_scores',
      });
      api = await startService('fixtures-live', '/v1/health/ready', { ...env, ROLE: 'api' });
      livePath = `/v1/matches/${t20}/live`;
      paths = [
        '/v1/sports',
        `/v1/leagues?sport=${soccer}`,
        `/v1/leagues/active?sport=${soccer}`,
        `/v1/matches?league=${epl}`,
        `/v1/matches/active?league=${epl}`,
        `/v1/matches/live?sport=${cricket}`,
        `/v1/matches/${arsChe}`,
        livePath,
        `/v1/matches/${t20}/result`,
        `/v1/teams?league=${epl}`,
      ];
    }, 90_000);

    afterAll(async () => {
      await Promise.all([ingest?.stop(), api?.stop()]);
      await provider.stop();
      await stack?.drop();
    }, 60_000);

    it('tags every JSON GET and answers If-None-Match with 304, HEAD alike', async () => {
      for (const path of paths) await expectConditional(api, path, key);
    });

    it('gives the same tag for the same resource on two processes', async () => {
      for (const path of paths) await expectSameOnBoth(ingest, api, path, key);
    });

    it('gives a new tag once the data changed, and the old one no longer holds', async () => {
      const old = await expectSameOnBoth(ingest, api, livePath, key);
      provider.push(
        catalog.ids.t20.stat_id,
        cricketState({ format: 't20', status: 'live', innings: 2, score: '12/0 (1.3)' }),
      );
      const tag = await newTagOnBoth(ingest, api, livePath, key, old);
      const answer = await call(api, livePath, key, { 'If-None-Match': old });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('etag')).toBe(tag);
      expect((await call(api, livePath, key, { 'If-None-Match': tag })).status).toBe(304);
    });

    it('leaves errors untagged and never answers them 304', async () => {
      const missing = await call(api, '/v1/matches/999999999', key, { 'If-None-Match': '*' });
      expect(missing.status).toBe(404);
      expect(missing.headers.get('etag')).toBeNull();
      const refused = await call(api, '/v1/sports', 'sk_unknown', { 'If-None-Match': '*' });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('etag')).toBeNull();
    });
  });

  describe('odds-passthrough', () => {
    const book = new FakeSportsbook();
    let stack: IsolatedStack;
    let ingest: ServiceProcess;
    let api: ServiceProcess;
    let key: string;
    const oddsPath = `/v1/book/odds?match=${MATCH}`;
    const paths = [
      '/v1/book/',
      '/v1/book/sports',
      '/v1/book/leagues',
      `/v1/book/leagues?sport=${SOCCER}`,
      '/v1/book/matches',
      `/v1/book/matches?sport=${SOCCER}`,
      oddsPath,
      `/v1/book/odds?match=${SPECIAL}`,
      `/v1/book/odds?match=${TENNIS_MATCH}`,
    ];

    beforeAll(async () => {
      stack = await isolatedStack('conditional_odds');
      await book.start();
      seedBook(book);
      key = await stack.issueKey({ scopes: 'odds', grants: [`book=${SOCCER},${TENNIS}`] });
      const env = { ...stack.env, BOOK_UPSTREAM_URL: book.url, BOOK_POLL_MS: '200' };
      ingest = await startService('odds-passthrough', '/readyz', { ...env, ROLE: 'all' });
      // Markets the book adds after the first load reach the ingest's replica after the others,
      // while a replica loading from PostgreSQL reads them all at once.
      await waitFor(async () => (await call(ingest, oddsPath, key)).status === 200, {
        timeoutMs: 15_000,
        what: 'the match to be served',
      });
      book.putMarket(SOCCER, aTotal(0.5, { cutoff_at: '2099-01-01T12:00:00Z' }));
      await waitFor(async () => (await call(ingest, oddsPath, key)).text.includes('Over 0.5'), {
        timeoutMs: 15_000,
        what: 'the added market to be served',
      });
      await storedId(
        stack.env.DATABASE_URL,
        `SELECT 1 AS id FROM odds.markets WHERE match_id = $1 AND selections::text LIKE '%Over 0.5%'`,
        [MATCH],
        'the added market to be stored',
      );
      api = await startService('odds-passthrough', '/readyz', { ...env, ROLE: 'api' });
    }, 90_000);

    afterAll(async () => {
      await Promise.all([ingest?.stop(), api?.stop()]);
      await book.stop();
      await stack?.drop();
    }, 60_000);

    it('tags every JSON GET and answers If-None-Match with 304, HEAD alike', async () => {
      for (const path of paths) await expectConditional(api, path, key);
    });

    it('gives the same tag for the same resource on two processes', async () => {
      for (const path of paths) await expectSameOnBoth(ingest, api, path, key);
    });

    it('gives a new tag once the data changed, and the old one no longer holds', async () => {
      const old = await expectSameOnBoth(ingest, api, oddsPath, key);
      book.putMarket(SOCCER, moneylineWithHomePrice(-135));
      const tag = await newTagOnBoth(ingest, api, oddsPath, key, old);
      await expectSameOnBoth(ingest, api, oddsPath, key);
      const answer = await call(api, oddsPath, key, { 'If-None-Match': old });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('etag')).toBe(tag);
    });

    it('leaves errors and the plain-text health answer untagged', async () => {
      const missing = await call(api, '/v1/book/odds?match=42', key, { 'If-None-Match': '*' });
      expect(missing.status).toBe(404);
      expect(missing.headers.get('etag')).toBeNull();
      const health = await call(api, '/healthz', key, { 'If-None-Match': '*' });
      expect(health.status).toBe(200);
      expect(health.headers.get('etag')).toBeNull();
    });
  });
});
