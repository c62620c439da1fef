import type { INestApplication } from '@nestjs/common';
import type { ManualClock } from '@app/clock';
import request from 'supertest';
import { answersFirstAtDoor, answersReplayed, metricValue, stableHeaders } from '../support/answer-replay';
import { http } from '../support/apps';
import { FakeSportsbook } from '../support/fake-sportsbook';
import { waitFor } from '../support/wait-for';
import { type IsolatedStack, isolatedStack } from '../streams/support/isolated-stack';
import { MATCH, SOCCER, TENNIS, TENNIS_MATCH, moneylineWithHomePrice, seedBook } from './book-fixture';
import { bootOnSeededBook } from './seeded-odds';
import { aTotal } from './sportsbook-factory';

/**
 * `GET /odds` in its plain form is answered at the front door the first time
 * (ADR 027) and replayed there when the same key asks again (ADR 026): the
 * answer must be the one the full pipeline gives, every refusal must be the
 * pipeline's own, and a replay must stop as soon as the match reads
 * differently, including a lock its cutoff brings with no change at the book.
 */
describe('odds-passthrough answer replay', () => {
  const book = new FakeSportsbook();
  let stack: IsolatedStack;
  let app: INestApplication;
  let clock: ManualClock;
  let both: string;
  let soccerOnly: string;
  let withoutGrant: string;
  let withoutScope: string;
  const oddsOf = `/v1/book/odds?match=${MATCH}`;
  /** The same target in a form the front door leaves to the full pipeline (the first value counts). */
  const throughPipeline = (match: number) => `/v1/book/odds?match=${match}&match=${match}`;

  const get = (path: string, key: string, headers: Record<string, string> = {}) =>
    request(http(app)).get(path).set('X-API-Key', key).set(headers);
  const metric = (pattern: RegExp) => metricValue(app, pattern);
  const replayed = () => answersReplayed(app);

  beforeAll(async () => {
    stack = await isolatedStack('odds_replay');
    await book.start();
    seedBook(book);
    [both, soccerOnly, withoutGrant, withoutScope] = await Promise.all([
      stack.issueKey({ scopes: 'odds', grants: [`book=${SOCCER},${TENNIS}`] }),
      stack.issueKey({ scopes: 'odds', grants: [`book=${SOCCER}`] }),
      stack.issueKey({ scopes: 'odds', grants: [`other=${SOCCER}`] }),
      stack.issueKey({ scopes: 'fixtures', grants: [`book=${SOCCER},${TENNIS}`] }),
    ]);
    ({ app, clock } = await bootOnSeededBook(stack, book, both));
  }, 90_000);

  afterAll(async () => {
    await app?.close();
    await book.stop();
    await stack?.drop();
  });

  const routeCount = () =>
    metric(
      /^http_request_duration_seconds_count\{method="GET",route="\/v1\/book\/odds",status="200"\} (\d+)$/m,
    );

  it("answers a key's first request at the front door with the full pipeline's status, headers and bytes", async () => {
    // The boot asked for both matches with `both`: `soccerOnly` has asked for nothing yet.
    const full = await get(throughPipeline(MATCH), soccerOnly).expect(200);
    const [firstBefore, replayedBefore, routeBefore] = [
      await answersFirstAtDoor(app),
      await replayed(),
      await routeCount(),
    ];
    const first = await get(oddsOf, soccerOnly).expect(200);
    expect(await answersFirstAtDoor(app)).toBe(firstBefore + 1);
    expect(await replayed()).toBe(replayedBefore);
    expect(first.text).toBe(full.text);
    expect(stableHeaders(first.headers)).toEqual(stableHeaders(full.headers));
    expect(first.headers['ratelimit-remaining']).toBeDefined();
    expect(await routeCount()).toBe(routeBefore + 1);
  });

  it('leaves every request its route refuses to the full pipeline, which answers it in its own words', async () => {
    const before = await answersFirstAtDoor(app);
    const refusals: [string, string | undefined, number, string][] = [
      ['/v1/book/odds?match=999', both, 404, 'match not found: 999'],
      [oddsOf, withoutGrant, 403, 'API key not permitted for sportsbook: book'],
      [oddsOf, withoutScope, 403, 'missing required scope: odds'],
      [oddsOf, 'sk_nobody-has-this-key-000000000', 401, 'invalid or inactive API key'],
      [oddsOf, undefined, 401, 'invalid or inactive API key'],
      [`/v1/book/odds?match=${TENNIS_MATCH}`, soccerOnly, 403, `API key not permitted for sport ${TENNIS}`],
      ['/v1/book/odds?match=1e3', both, 400, 'invalid parameter: match'],
      ['/v1/book/odds?match=', both, 400, 'invalid parameter: match'],
    ];
    for (const [path, key, status, error] of refusals) {
      const answer = await (key === undefined ? request(http(app)).get(path) : get(path, key));
      expect({ path, status: answer.status, body: answer.body as unknown }).toEqual({
        path,
        status,
        body: { error },
      });
    }
    expect(await answersFirstAtDoor(app)).toBe(before);
  });

  it('gives the same status, headers and bytes again by replay, under the route it stands for', async () => {
    const full = await get(throughPipeline(MATCH), both).expect(200);
    await get(oddsOf, both).expect(200);
    const [replayedBefore, routeBefore] = [await replayed(), await routeCount()];
    const again = await get(oddsOf, both).expect(200);
    expect(await replayed()).toBe(replayedBefore + 1);
    expect(again.text).toBe(full.text);
    expect(stableHeaders(again.headers)).toEqual(stableHeaders(full.headers));
    expect(again.headers['ratelimit-remaining']).toBeDefined();
    expect(await routeCount()).toBe(routeBefore + 1);
    const held = await get(oddsOf, both, { 'If-None-Match': full.headers.etag }).expect(304);
    expect(held.headers.etag).toBe(full.headers.etag);
    expect(await replayed()).toBe(replayedBefore + 2);
  });

  it("never gives one key's answer to a key without the match's sport", async () => {
    const tennis = `/v1/book/odds?match=${TENNIS_MATCH}`;
    await get(tennis, both).expect(200);
    await get(tennis, both).expect(200);
    expect((await get(tennis, soccerOnly).expect(403)).body).toEqual({
      error: `API key not permitted for sport ${TENNIS}`,
    });
  });

  it('answers a price change at the next request once the replica holds it, not the recorded answer', async () => {
    const before = await get(oddsOf, both).expect(200);
    await get(oddsOf, both).expect(200);
    book.putMarket(SOCCER, moneylineWithHomePrice(333));
    await waitFor(async () => (await get(oddsOf, both)).text.includes('"price":333'), {
      timeoutMs: 10_000,
      what: 'the new price answered',
    });
    expect((await get(oddsOf, both)).text).not.toBe(before.text);
  });

  it('answers a market locked by its cutoff at once, though the book changed nothing', async () => {
    // The app's clock stands still until moved: the cutoff passes when the test says so.
    const cutoff = new Date(clock.now() + 60_000).toISOString().replace(/\.\d+Z$/, 'Z');
    book.putMarket(SOCCER, aTotal(4.5, { cutoff_at: cutoff }));
    const over = (text: string) =>
      (JSON.parse(text) as { selections: { bet_name: string; status: string }[] }).selections.find(
        (s) => s.bet_name === 'Over 4.5',
      )?.status;
    await waitFor(async () => over((await get(oddsOf, both)).text) === 'unlocked', {
      timeoutMs: 10_000,
      what: 'the market answered unlocked',
    });
    const before = await replayed();
    expect(over((await get(oddsOf, both).expect(200)).text)).toBe('unlocked');
    expect(await replayed()).toBe(before + 1);
    clock.set(Date.parse(cutoff));
    // The very next request, before any poll could publish the lock: the replica locks it when read.
    expect(over((await get(oddsOf, both).expect(200)).text)).toBe('locked');
  });
});
