import type { INestApplication } from '@nestjs/common';
import { Client } from 'pg';
import request from 'supertest';
import type { ManualClock } from '@app/clock';
import { bootFixtures, bootOdds, http } from '../support/apps';
import { issueTestKey, runKeys } from '../support/keys-cli';
import { BookProbeController } from '../support/probes';
import { runDatabaseUrl } from '../support/test-env';
import { waitFor } from '../support/wait-for';

/** Key changes made with the CLI reach running processes through NATS. */
describe('key changes across running services', () => {
  let fixtures: INestApplication;
  let odds: INestApplication;
  let fixturesClock: ManualClock;
  let sportId: number;

  beforeAll(async () => {
    const db = new Client({ connectionString: runDatabaseUrl() });
    await db.connect();
    const inserted = await db.query<{ id: number }>(
      `INSERT INTO fixtures.sports (provider_key, name) VALUES ('propagation-test', 'Propagation') RETURNING id`,
    );
    sportId = inserted.rows[0].id;
    await db.end();
    ({ app: fixtures, clock: fixturesClock } = await bootFixtures());
    ({ app: odds } = await bootOdds({ controllers: [BookProbeController] }));
  });

  afterAll(async () => {
    await fixtures?.close();
    await odds?.close();
  });

  const sports = (key: string) => request(http(fixtures)).get('/v1/sports').set('X-API-Key', key);
  const probe = (key: string, sport?: number) =>
    request(http(odds))
      .get('/v1/book/probe')
      .query(sport === undefined ? {} : { sport })
      .set('X-API-Key', key);

  it('accepts a key issued by the CLI, and refuses it within 1 s of key:disable in every service', async () => {
    const { key, keyId } = await issueTestKey({
      sports: String(sportId),
      scopes: 'fixtures,odds',
      grants: ['book=29'],
    });
    const listed = await sports(key).expect(200);
    expect(listed.body).toEqual([{ id: sportId, name: 'Propagation' }]);
    await probe(key).expect(200);

    const disabled = await runKeys(['key:disable', '--id', keyId]);
    expect(disabled.code).toBe(0);
    const refusedFixtures = waitFor(async () => (await sports(key)).status === 401, {
      timeoutMs: 1000,
      what: 'fixtures-live to refuse the disabled key',
    });
    const refusedOdds = waitFor(async () => (await probe(key)).status === 401, {
      timeoutMs: 1000,
      what: 'odds-passthrough to refuse the disabled key',
    });
    await Promise.all([refusedFixtures, refusedOdds]);
    expect((await sports(key)).body).toEqual({ detail: 'invalid or inactive API key' });
    expect((await probe(key)).body).toEqual({ error: 'invalid or inactive API key' });

    await runKeys(['key:enable', '--id', keyId]);
    await waitFor(async () => (await sports(key)).status === 200, {
      timeoutMs: 1000,
      what: 're-enabled key',
    });
  });

  it('applies scope, grant and allowlist changes within 1 s, in the odds error texts', async () => {
    const { key, keyId, accountId } = await issueTestKey({ sports: '', scopes: 'fixtures' });
    expect((await probe(key)).body).toEqual({ error: 'missing required scope: odds' });
    expect((await probe(key)).status).toBe(403);

    await runKeys(['key:update', '--id', keyId, '--scopes', 'odds']);
    await waitFor(
      async () =>
        ((await probe(key)).body as { error?: string }).error ===
        'API key not permitted for sportsbook: book',
      {
        timeoutMs: 1000,
        what: 'the scope change',
      },
    );

    await runKeys(['key:update', '--id', keyId, '--grant', 'book=29']);
    await waitFor(async () => (await probe(key, 29)).status === 200, {
      timeoutMs: 1000,
      what: 'the new grant',
    });
    const other = await probe(key, 30);
    expect(other.status).toBe(403);
    expect(other.body).toEqual({ error: 'API key not permitted for sport 30' });

    await runKeys(['account:sports', '--account', accountId, '--sports', String(sportId)]);
    await waitFor(async () => ((await sports(key)).body as unknown[]).length === 1, {
      timeoutMs: 1000,
      what: 'the allowlist',
    });
  });

  it('refuses a key at the exact instant it expires', async () => {
    const expiresAt = new Date(Date.now() + 60 * 60 * 1000);
    const { key } = await issueTestKey({
      sports: '',
      scopes: 'fixtures',
      expiresAt: expiresAt.toISOString(),
    });
    fixturesClock.set(expiresAt.getTime() - 1);
    await sports(key).expect(200);
    fixturesClock.set(expiresAt.getTime());
    const refused = await sports(key).expect(401);
    expect(refused.body).toEqual({ detail: 'invalid or inactive API key' });
    fixturesClock.set(Date.now());
  });

  it('reads the key from the header before the query, in both services', async () => {
    const { key } = await issueTestKey({ sports: '', scopes: 'fixtures,odds', grants: ['book='] });
    await request(http(fixtures)).get('/v1/sports').query({ key }).expect(200);
    await request(http(odds)).get('/v1/book/probe').query({ key }).expect(200);
    const headerWins = await request(http(fixtures))
      .get('/v1/sports')
      .query({ key })
      .set('X-API-Key', 'sk_not-a-real-key');
    expect(headerWins.status).toBe(401);
    const missing = await request(http(fixtures)).get('/v1/sports').expect(401);
    expect((missing.body as { detail: string }).detail).toMatch(/missing API key/);
    const missingOdds = await request(http(odds)).get('/v1/book/probe').expect(401);
    expect(missingOdds.body).toEqual({ error: 'invalid or inactive API key' });
    const emptyBook = await probe(key, 29);
    expect(emptyBook.body).toEqual({ error: 'API key not permitted for sport 29' });
  });

  it('keeps health public and never echoes a key in an error', async () => {
    await request(http(fixtures)).get('/v1/health').expect(200, { status: 'ok' });
    await request(http(odds)).get('/healthz').expect(200, 'ok');
    const notFound = await request(http(fixtures)).get('/v1/nowhere?key=sk_secretvalue123').expect(404);
    expect(JSON.stringify(notFound.body)).not.toContain('sk_secretvalue123');
    expect(Object.keys(notFound.body as object)).toEqual(['detail']);
  });
});
