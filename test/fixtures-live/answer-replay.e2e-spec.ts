import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { answersReplayed, metricValue, stableHeaders } from '../support/answer-replay';
import { http } from '../support/apps';
import { FakeLivescores } from '../support/fake-livescores';
import { issueTestKey, runKeys } from '../support/keys-cli';
import { waitFor } from '../support/wait-for';
import { testCatalog } from './catalog-factory';
import { bootAgainst, catalogPolls, leagueIdOf } from './harness';

// Boots an app and runs the key CLI: slow on a busy machine.
jest.setTimeout(120_000);
/**
 * A catalog page asked for again by the same key is replayed (ADR 019): the
 * answer must be the very one the full pipeline gives, and everything the
 * pipeline checks per request (key, rate, freshness of the page, the key's
 * sports) must still hold. The app's clock is frozen, so a page can only go
 * stale through a catalog change notice, never by age.
 */
describe('fixtures-live catalog answer replay', () => {
  const catalog = testCatalog();
  const fake = new FakeLivescores();
  let app: INestApplication;
  let page: string;

  const get = (path: string, key: string, headers: Record<string, string> = {}) =>
    request(http(app)).get(path).set('X-API-Key', key).set(headers);

  const metric = (pattern: RegExp) => metricValue(app, pattern);
  const replayed = () => answersReplayed(app);

  beforeAll(async () => {
    fake.setCatalog(catalog.sports);
    await fake.start();
    // Polls every second: only one that writes sends the change notice that ends replays.
    ({ app } = await bootAgainst(fake));
    await catalogPolls(app);
    page = `/v1/matches?league=${await leagueIdOf(app, catalog.ids.epl)}&limit=3`;
  });

  afterAll(async () => {
    await app?.close();
    await fake.stop();
  });

  it('gives the same status, headers and bytes as the full pipeline, under the route it stands for', async () => {
    const { key } = await issueTestKey({ sports: 'soccer', scopes: 'fixtures' });
    const routeCount = () =>
      metric(
        /^http_request_duration_seconds_count\{method="GET",route="\/v1\/matches",status="200"\} (\d+)$/m,
      );
    const [replayedBefore, routeBefore] = [await replayed(), await routeCount()];
    const full = await get(page, key).expect(200);
    const again = await get(page, key).expect(200);
    expect(await replayed()).toBe(replayedBefore + 1);
    expect(again.text).toBe(full.text);
    expect(stableHeaders(again.headers)).toEqual(stableHeaders(full.headers));
    expect(again.headers['ratelimit-remaining']).toBeDefined();
    expect(again.headers['x-request-id']).not.toBe(full.headers['x-request-id']);
    expect(await routeCount()).toBe(routeBefore + 2);

    const held = await get(page, key, { 'If-None-Match': full.headers.etag }).expect(304);
    expect(held.headers.etag).toBe(full.headers.etag);
    expect(held.text).toBe('');
    expect(await replayed()).toBe(replayedBefore + 2);
  });

  it("never gives one key's page to another key, which gets its own answer", async () => {
    const [{ key: soccer }, { key: cricketOnly }] = await Promise.all([
      issueTestKey({ sports: 'soccer', scopes: 'fixtures' }),
      issueTestKey({ sports: 'cricket', scopes: 'fixtures' }),
    ]);
    await get(page, soccer).expect(200);
    await get(page, soccer).expect(200);
    const other = await get(page, cricketOnly).expect(200);
    expect(JSON.parse(other.text)).toMatchObject({ items: [], total: 0 });
  });

  it('refuses a key disabled after its page was recorded', async () => {
    const { key, keyId } = await issueTestKey({ sports: 'soccer', scopes: 'fixtures' });
    await get(page, key).expect(200);
    await get(page, key).expect(200);
    expect((await runKeys(['key:disable', '--id', keyId])).code).toBe(0);
    await waitFor(async () => (await get(page, key)).status === 401, {
      timeoutMs: 20_000,
      what: 'the disabled key refused',
    });
  });

  it('refuses a key over its rate with the same 429 the full pipeline gives', async () => {
    // The frozen clock never refills the bucket: a burst of 3 is exactly three answers.
    const { key } = await issueTestKey({ sports: 'soccer', scopes: 'fixtures', rate: '1/3' });
    await get(page, key).expect(200);
    const before = await replayed();
    await get(page, key).expect(200);
    await get(page, key).expect(200);
    expect(await replayed()).toBe(before + 2);
    const refused = await get(page, key).expect(429);
    expect(refused.body).toEqual({ detail: 'rate limit exceeded' });
    expect(refused.headers['retry-after']).toBeDefined();
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    const other = `/v1/matches?league=${await leagueIdOf(app, catalog.ids.epl)}&limit=4`;
    const refusedInFull = await get(other, key).expect(429);
    expect(stableHeaders(refusedInFull.headers)).toEqual(stableHeaders(refused.headers));
    expect(refusedInFull.text).toBe(refused.text);
  });

  it('keeps replaying across catalog polls that changed nothing', async () => {
    const { key } = await issueTestKey({ sports: 'soccer', scopes: 'fixtures' });
    const full = await get(page, key).expect(200);
    await catalogPolls(app, 2);
    const before = await replayed();
    const again = await get(page, key).expect(200);
    expect(await replayed()).toBe(before + 1);
    expect(again.text).toBe(full.text);
  });

  it('serves a catalog change at the next request after its notice, not the recorded page', async () => {
    const { key } = await issueTestKey({ sports: 'soccer', scopes: 'fixtures' });
    const list = `/v1/matches?league=${await leagueIdOf(app, catalog.ids.epl)}&limit=100`;
    const before = await get(list, key).expect(200);
    await get(list, key).expect(200);
    const epl = catalog.sports[0].leagues[0];
    const first = epl.matches[0];
    epl.matches.push({ ...first, id: `${first.id}-new`, stat_id: `${first.stat_id}-new`, live_id: null });
    await waitFor(async () => (await get(list, key)).text !== before.text, {
      timeoutMs: 20_000,
      what: 'the new match listed',
    });
    const total = (text: string) => (JSON.parse(text) as { total: number }).total;
    expect(total((await get(list, key)).text)).toBe(total(before.text) + 1);
  });
});
