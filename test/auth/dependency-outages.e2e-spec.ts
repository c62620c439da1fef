import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import type { ManualClock } from '@app/clock';
import { KeyRegistry } from '@app/auth';
import { bootFixtures, bootOdds, http } from '../support/apps';
import { issueTestKey, runKeys } from '../support/keys-cli';
import { BookProbeController } from '../support/probes';
import { TcpProxy, hostAndPort, withHostPort } from '../support/tcp-proxy';
import { NATS_URL, runDatabaseUrl } from '../support/test-env';
import { waitFor } from '../support/wait-for';

const TTL_MS = 15_000;

/**
 * Sends `send` until one of its lookups is answered from the cache. A key's
 * own announcement (`key:issue` and the other commands publish one) may land
 * while the first lookup runs, and a lookup overtaken by an invalidation is
 * not cached; the outage tests need the decision cached before the cut.
 */
async function untilCached(app: INestApplication, send: () => Promise<unknown>): Promise<void> {
  const registry = app.get(KeyRegistry);
  await waitFor(
    async () => {
      const hits = registry.stats.hits;
      await send();
      return registry.stats.hits > hits;
    },
    { timeoutMs: 5000, what: "the key's decision cached" },
  );
}

describe('with NATS cut off', () => {
  let proxy: TcpProxy;
  let fixtures: INestApplication;
  let clock: ManualClock;

  beforeAll(async () => {
    const nats = hostAndPort(NATS_URL, 4222);
    proxy = new TcpProxy(nats.host, nats.port);
    await proxy.start();
    ({ app: fixtures, clock } = await bootFixtures({
      env: { NATS_URL: `nats://127.0.0.1:${proxy.port}`, AUTH_CACHE_TTL_MS: String(TTL_MS) },
    }));
  });

  afterAll(async () => {
    await fixtures?.close();
    await proxy?.cut();
  });

  const sports = (key: string) => request(http(fixtures)).get('/v1/sports').set('X-API-Key', key);
  const health = async () => (await request(http(fixtures)).get('/v1/health')).body as { status: string };

  it('refuses a disabled key once the cache TTL passes, and listens again after NATS returns', async () => {
    await waitFor(async () => (await health()).status === 'ok', {
      timeoutMs: 10_000,
      what: 'NATS connection',
    });
    const { key, keyId } = await issueTestKey({ scopes: 'fixtures' });
    await untilCached(fixtures, () => sports(key).expect(200));

    await proxy.cut();
    await waitFor(async () => (await health()).status === 'degraded', {
      timeoutMs: 5000,
      what: 'degraded health',
    });
    expect(await health()).toMatchObject({ status: 'degraded', database: 'up', nats: 'reconnecting' });

    expect((await runKeys(['key:disable', '--id', keyId])).code).toBe(0);
    // The invalidation was lost with the link: the cached decision stands until its TTL.
    await sports(key).expect(200);
    clock.advance(TTL_MS - 1);
    await sports(key).expect(200);
    clock.advance(1);
    await sports(key).expect(401);

    await proxy.restore();
    await waitFor(async () => (await health()).status === 'ok', {
      timeoutMs: 10_000,
      what: 'NATS reconnect',
    });
    await runKeys(['key:enable', '--id', keyId]);
    await waitFor(async () => (await sports(key)).status === 200, {
      timeoutMs: 1000,
      what: 'the re-enabled key after the reconnect',
    });
  });
});

describe('with PostgreSQL unreachable', () => {
  let proxy: TcpProxy;
  let fixtures: INestApplication;
  let odds: INestApplication;
  let fixturesClock: ManualClock;
  let oddsClock: ManualClock;

  beforeAll(async () => {
    const database = hostAndPort(runDatabaseUrl(), 5432);
    proxy = new TcpProxy(database.host, database.port);
    await proxy.start();
    const env = {
      DATABASE_URL: withHostPort(runDatabaseUrl(), proxy.port),
      AUTH_CACHE_TTL_MS: String(TTL_MS),
    };
    ({ app: fixtures, clock: fixturesClock } = await bootFixtures({ env }));
    ({ app: odds, clock: oddsClock } = await bootOdds({ env, controllers: [BookProbeController] }));
  });

  afterAll(async () => {
    await proxy?.restore().catch(() => undefined);
    await fixtures?.close();
    await odds?.close();
    await proxy?.cut();
  });

  const sports = (key: string) => request(http(fixtures)).get('/v1/sports').set('X-API-Key', key);
  const probe = (key: string) => request(http(odds)).get('/v1/book/probe').set('X-API-Key', key);

  it('answers 503 for keys it cannot look up, and serves cached ones until their TTL', async () => {
    const cached = await issueTestKey({ scopes: 'fixtures,odds', grants: ['book=1'] });
    const uncached = await issueTestKey({ scopes: 'fixtures,odds', grants: ['book=1'] });
    fixturesClock.set(Date.now());
    oddsClock.set(Date.now());
    await untilCached(odds, () => probe(cached.key).expect(200));
    // /v1/sports reads the catalog too, so the fixtures side proves the guard with a key it has cached
    // and then the health endpoint; the odds probe needs nothing but the key registry.
    await untilCached(fixtures, () => sports(cached.key).expect(200));

    await proxy.cut();

    await probe(cached.key).expect(200);
    const refused = await probe(uncached.key).expect(503);
    expect(refused.body).toEqual({ error: 'auth backend unavailable' });
    const unknown = await probe('sk_never-issued-key-000000000000000').expect(503);
    expect(unknown.body).toEqual({ error: 'auth backend unavailable' });
    const fixturesRefused = await sports(uncached.key).expect(503);
    expect(fixturesRefused.body).toEqual({ detail: 'auth backend unavailable' });
    // Still ready: the book is served from memory, and every replica shares the one database.
    const ready = await request(http(odds)).get('/readyz').expect(200);
    expect(ready.body).toMatchObject({ status: 'ready', database: 'down' });
    const degraded = await request(http(fixtures)).get('/v1/health').expect(200);
    expect(degraded.body).toMatchObject({ status: 'degraded', database: 'down' });

    oddsClock.advance(TTL_MS);
    const expired = await probe(cached.key).expect(503);
    expect(expired.body).toEqual({ error: 'auth backend unavailable' });

    await proxy.restore();
    await waitFor(async () => (await probe(cached.key)).status === 200, {
      timeoutMs: 10_000,
      what: 'PostgreSQL to be reachable again',
    });
    await probe(uncached.key).expect(200);
  });
});
