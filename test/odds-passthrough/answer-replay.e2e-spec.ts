import type { INestApplication } from '@nestjs/common';
import type { ManualClock } from '@app/clock';
import request from 'supertest';
import { answersReplayed, metricValue, stableHeaders } from '../support/answer-replay';
import { http } from '../support/apps';
import { FakeSportsbook } from '../support/fake-sportsbook';
import { waitFor } from '../support/wait-for';
import { type IsolatedStack, isolatedStack } from '../streams/support/isolated-stack';
import { MATCH, SOCCER, TENNIS, TENNIS_MATCH, moneylineWithHomePrice, seedBook } from './book-fixture';
import { bootOnSeededBook } from './seeded-odds';
import { aTotal } from './sportsbook-factory';

/**
 * `GET /odds` asked again by the same key is replayed at the front door
 * (ADR 026): the answer must be the one the full pipeline gives, and it must
 * stop being replayed as soon as the match reads differently, including a lock
 * its cutoff brings with no change at the book.
 */
describe('odds-passthrough answer replay', () => {
  const book = new FakeSportsbook();
  let stack: IsolatedStack;
  let app: INestApplication;
  let clock: ManualClock;
  let both: string;
  let soccerOnly: string;
  const oddsOf = `/v1/book/odds?match=${MATCH}`;

  const get = (path: string, key: string, headers: Record<string, string> = {}) =>
    request(http(app)).get(path).set('X-API-Key', key).set(headers);
  const metric = (pattern: RegExp) => metricValue(app, pattern);
  const replayed = () => answersReplayed(app);

  beforeAll(async () => {
    stack = await isolatedStack('odds_replay');
    await book.start();
    seedBook(book);
    [both, soccerOnly] = await Promise.all([
      stack.issueKey({ scopes: 'odds', grants: [`book=${SOCCER},${TENNIS}`] }),
      stack.issueKey({ scopes: 'odds', grants: [`book=${SOCCER}`] }),
    ]);
    ({ app, clock } = await bootOnSeededBook(stack, book, both));
  }, 90_000);

  afterAll(async () => {
    await app?.close();
    await book.stop();
    await stack?.drop();
  });

  it('gives the same status, headers and bytes as the full pipeline, under the route it stands for', async () => {
    const routeCount = () =>
      metric(
        /^http_request_duration_seconds_count\{method="GET",route="\/v1\/book\/odds",status="200"\} (\d+)$/m,
      );
    const full = await get(oddsOf, both).expect(200);
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
