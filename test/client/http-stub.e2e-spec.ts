import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FixturesClient, OddsClient, RateLimitError } from '@sports-data/client';

/**
 * Rate limits (429 + Retry-After) and conditional requests (ETag) over real
 * HTTP against a small local server, which can answer what the services
 * answer only rarely: a storm of 429 longer than the client's retries, a
 * body that changes between polls. services-client covers the same
 * against the services themselves.
 */
describe('reference client: 429 storms and If-None-Match over HTTP', () => {
  let server: Server;
  let base: string;
  /** Requests still to refuse with 429, per path. */
  const storms = new Map<string, number>();
  const seen: { path: string; ifNoneMatch?: string; at: number }[] = [];
  let version = 1;

  function handle(request: IncomingMessage, response: ServerResponse): void {
    const path = (request.url ?? '/').split('?')[0];
    seen.push({ path, ifNoneMatch: request.headers['if-none-match'], at: Date.now() });
    const odds = path.startsWith('/v1/book');
    const left = storms.get(path) ?? 0;
    if (left > 0) {
      storms.set(path, left - 1);
      response.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': '1' });
      response.end(
        JSON.stringify(odds ? { error: 'rate limit exceeded' } : { detail: 'rate limit exceeded' }),
      );
      return;
    }
    const etag = `"sports-${version}"`;
    if (request.headers['if-none-match'] === etag) {
      response.writeHead(304, { ETag: etag, 'Cache-Control': 'private, no-cache' });
      response.end();
      return;
    }
    response.writeHead(200, {
      'Content-Type': 'application/json',
      ETag: etag,
      'Cache-Control': 'private, no-cache',
    });
    response.end(JSON.stringify([{ id: version, name: `Sport v${version}` }]));
  }

  beforeAll(async () => {
    server = createServer(handle);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  beforeEach(() => {
    seen.length = 0;
    storms.clear();
  });

  it('waits Retry-After between attempts and succeeds once the storm passes', async () => {
    storms.set('/v1/book/sports', 2);
    const client = new OddsClient({ baseUrl: `${base}/v1/book`, apiKey: 'sk_test' });
    expect(await client.sports()).toEqual([{ id: version, name: `Sport v${version}` }]);
    expect(seen).toHaveLength(3);
    for (let i = 1; i < seen.length; i++) expect(seen[i].at - seen[i - 1].at).toBeGreaterThanOrEqual(950);
    expect(client.http.counters.rateLimited).toBe(2);
  });

  it('gives up after its bounded retries with a RateLimitError carrying the service detail', async () => {
    storms.set('/v1/sports', 10);
    const client = new FixturesClient({ baseUrl: `${base}/v1`, apiKey: 'sk_test', maxRateLimitRetries: 2 });
    const error = await client.sports().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, serviceMessage: 'rate limit exceeded', retryAfterMs: 1_000 });
    expect(seen).toHaveLength(3);
  });

  it('sends the last ETag and reuses the cached body on 304 until the body changes', async () => {
    const client = new FixturesClient({ baseUrl: `${base}/v1`, apiKey: 'sk_test' });
    const first = await client.sports();
    const second = await client.sports();
    expect(second).toEqual(first);
    expect(seen.map((request) => request.ifNoneMatch)).toEqual([undefined, `"sports-${version}"`]);
    expect(client.http.counters.notModified).toBe(1);
    version += 1;
    expect(await client.sports()).toEqual([{ id: version, name: `Sport v${version}` }]);
    expect(client.http.counters.notModified).toBe(1);
  });
});
