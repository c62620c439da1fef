import { issueTestKey, runKeys } from '../support/keys-cli';
import { startService, type ServiceProcess } from '../support/service-process';
import { waitFor } from '../support/wait-for';

interface Limited {
  readonly name: 'fixtures-live' | 'odds-passthrough';
  readonly readyPath: string;
  readonly field: 'detail' | 'error';
  /** A keyed route that answers 200 on an empty database. */
  readonly okPath: string;
  /** A keyed route that answers 404. */
  readonly notFoundPath: string;
  /** A keyed route that refuses its parameters, and with which status. */
  readonly badPath: string;
  readonly badStatus: number;
  /** Routes that are never limited and need no key. */
  readonly openPaths: readonly string[];
}

const SERVICES: Limited[] = [
  {
    name: 'fixtures-live',
    readyPath: '/v1/health/ready',
    field: 'detail',
    okPath: '/v1/sports',
    notFoundPath: '/v1/matches/987654321',
    badPath: '/v1/leagues?sport=x',
    badStatus: 422,
    openPaths: ['/v1/health', '/v1/health/ready', '/metrics', '/v1/docs-json'],
  },
  {
    name: 'odds-passthrough',
    readyPath: '/readyz',
    field: 'error',
    okPath: '/v1/book/sports',
    notFoundPath: '/v1/book/odds?match=987654321',
    badPath: '/v1/book/odds?match=x',
    badStatus: 400,
    openPaths: ['/healthz', '/readyz', '/metrics', '/v1/book/docs-json', '/v1/book'],
  },
];

const SCOPES = 'fixtures,live_scores_statistics,odds';
const GRANTS = ['book=1'];

/** The rate-limit headers of an answer, as numbers (NaN when absent). */
function limitHeaders(response: Response) {
  const read = (name: string) => Number(response.headers.get(name) ?? Number.NaN);
  return {
    limit: read('ratelimit-limit'),
    remaining: read('ratelimit-remaining'),
    reset: read('ratelimit-reset'),
  };
}

describe.each(SERVICES)('REST rate limits of $name', (service) => {
  let process: ServiceProcess;

  beforeAll(async () => {
    // Defaults of this process: the key below without its own rate gets these.
    process = await startService(service.name, service.readyPath, {
      ROLE: 'api',
      RATE_LIMIT_RPS: '1000',
      RATE_LIMIT_BURST: '1000',
    });
  }, 60_000);

  afterAll(async () => {
    await process?.stop();
  });

  const get = (path: string, key?: string) =>
    fetch(`${process.url}${path}`, { headers: key === undefined ? {} : { 'X-API-Key': key } });

  it('sends RateLimit headers on 200, 404 and parameter errors, then 429 with Retry-After and the error shape', async () => {
    // One request per second, so the bucket does not refill noticeably while the test runs.
    const { key } = await issueTestKey({ scopes: SCOPES, grants: GRANTS, rate: '1/4' });

    const ok = await get(service.okPath, key);
    expect(ok.status).toBe(200);
    expect(limitHeaders(ok)).toEqual({ limit: 4, remaining: 3, reset: 0 });

    const notFound = await get(service.notFoundPath, key);
    expect(notFound.status).toBe(404);
    expect(limitHeaders(notFound)).toEqual({ limit: 4, remaining: 2, reset: 0 });

    const bad = await get(service.badPath, key);
    expect(bad.status).toBe(service.badStatus);
    expect(limitHeaders(bad)).toMatchObject({ limit: 4, remaining: 1 });

    const last = await get(service.okPath, key);
    expect(last.status).toBe(200);
    expect(limitHeaders(last)).toMatchObject({ limit: 4, remaining: 0 });
    expect(limitHeaders(last).reset).toBeGreaterThanOrEqual(0);

    const refused = await get(service.okPath, key);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await refused.text()).toBe(JSON.stringify({ [service.field]: 'rate limit exceeded' }));
    const retryAfter = refused.headers.get('retry-after') ?? '';
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    const headers = limitHeaders(refused);
    expect(headers).toMatchObject({ limit: 4, remaining: 0 });
    expect(Number.isInteger(headers.reset) && headers.reset >= 1).toBe(true);
  });

  it('charges nothing to a request without a valid key or to a path no route serves, and sends no RateLimit headers', async () => {
    for (const key of [undefined, 'sk_nobody-has-this-key-000000000']) {
      const refused = await get(service.okPath, key);
      expect(refused.status).toBe(401);
      expect(refused.headers.get('ratelimit-limit')).toBeNull();
    }
    const { key } = await issueTestKey({ scopes: SCOPES, grants: GRANTS, rate: '1/1' });
    for (let i = 0; i < 3; i++) {
      const nowhere = await get('/v1/no-such-route', key);
      expect(nowhere.status).toBe(404);
      expect(nowhere.headers.get('ratelimit-limit')).toBeNull();
    }
    expect((await get(service.okPath, key)).status).toBe(200);
  });

  it('never limits health, readiness, metrics and documentation', async () => {
    const { key } = await issueTestKey({ scopes: SCOPES, grants: GRANTS, rate: '1/1' });
    expect((await get(service.okPath, key)).status).toBe(200);
    expect((await get(service.okPath, key)).status).toBe(429);
    for (let round = 0; round < 10; round++) {
      for (const path of service.openPaths) {
        const answer = await get(path, key);
        expect({ path, status: answer.status }).toEqual({ path, status: 200 });
        expect(answer.headers.get('ratelimit-limit')).toBeNull();
      }
    }
  });

  it("applies a key's --rate set with key:update to the running service, and default gives the service's back", async () => {
    const { key, keyId } = await issueTestKey({ scopes: SCOPES, grants: GRANTS });
    expect(limitHeaders(await get(service.okPath, key)).limit).toBe(1000);

    expect((await runKeys(['key:update', '--id', keyId, '--rate', '1/2'])).json).toMatchObject({
      rate: { rps: 1, burst: 2 },
    });
    await waitFor(async () => limitHeaders(await get(service.okPath, key)).limit === 2, {
      timeoutMs: 5_000,
      what: 'the new rate to apply',
    });
    await waitFor(async () => (await get(service.okPath, key)).status === 429, {
      timeoutMs: 5_000,
      what: 'the key to run out of its new burst',
    });

    const cleared = await runKeys(['key:update', '--id', keyId, '--rate', 'default']);
    expect(cleared.json).toMatchObject({ rate: null });
    const listed = await runKeys(['key:list']);
    const views = listed.json.keys as Array<{ id: string; rate: unknown }>;
    expect(views.find((view) => view.id === keyId)?.rate).toBeNull();
    await waitFor(async () => limitHeaders(await get(service.okPath, key)).limit === 1000, {
      timeoutMs: 5_000,
      what: 'the service default to apply again',
    });
  });
});
