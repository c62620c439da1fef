import type { INestApplication } from '@nestjs/common';
import type { ManualClock } from '@app/clock';
import { aMatchup, aMoneyline } from '../odds-passthrough/sportsbook-factory';
import {
  MATCH,
  SOCCER,
  SPECIAL,
  TENNIS,
  TENNIS_MATCH,
  FUTURE,
  seedBook,
} from '../odds-passthrough/book-fixture';
import { bootOdds } from '../support/apps';
import { FakeSportsbook } from '../support/fake-sportsbook';
import { waitFor } from '../support/wait-for';
import { untilMatchServed } from './support/book-served';
import { type IsolatedStack, isolatedStack } from './support/isolated-stack';
import { type Frame, listen, refusedHandshake, StreamClient } from './support/stream-client';

const NEW_MATCH = 1609990001;

let priceStep = 0;
/** A money line whose prices differ from every earlier one, so the book sees a real change. */
function freshMoneyline(matchupId: number = MATCH) {
  priceStep += 1;
  return aMoneyline({
    matchup_id: matchupId,
    cutoff_at: FUTURE,
    prices: [
      { designation: 'home', price: 300 + priceStep },
      { designation: 'away', price: 400 + priceStep },
      { designation: 'draw', price: 500 + priceStep },
    ],
  });
}
const isUpdateOf = (match: number) => (frame: Frame) => frame.type === 'update' && frame.match_id === match;
const isSnapshotOf = (match: number) => (frame: Frame) =>
  frame.type === 'snapshot' && frame.match_id === match;

/** The odds stream `/v1/book/data` against the real app, PostgreSQL, NATS and a fake sportsbook. */
describe('odds stream /v1/book/data', () => {
  const book = new FakeSportsbook();
  const apps: INestApplication[] = [];
  const clients: StreamClient[] = [];
  let stack: IsolatedStack;
  let clock: ManualClock;
  let url: string;
  let both: string;
  let soccerOnly: string;
  let noOdds: string;
  let otherBook: string;
  let revoked: { id: string; key: string };

  async function open(key: string, base = url, query = ''): Promise<StreamClient> {
    const client = await StreamClient.open(`${base}/v1/book/data?key=${key}${query}`);
    clients.push(client);
    return client;
  }

  async function boot(
    env: Record<string, string>,
  ): Promise<{ app: INestApplication; url: string; clock: ManualClock }> {
    const booted = await bootOdds({
      env: {
        ...stack.env,
        BOOK_UPSTREAM_URL: book.url,
        BOOK_POLL_MS: '200',
        BOOK_HEARTBEAT_MS: '200',
        ...env,
      },
    });
    apps.push(booted.app);
    return { app: booted.app, url: await listen(booted.app), clock: booted.clock };
  }

  beforeAll(async () => {
    stack = await isolatedStack('odds_stream');
    await book.start();
    seedBook(book);
    [both, soccerOnly, noOdds, otherBook] = await Promise.all([
      stack.issueKey({ scopes: 'odds', grants: [`book=${SOCCER},${TENNIS}`] }),
      stack.issueKey({ scopes: 'odds', grants: [`book=${SOCCER}`] }),
      stack.issueKey({ scopes: 'fixtures', grants: [`book=${SOCCER}`] }),
      stack.issueKey({ scopes: 'odds', grants: [`other=${SOCCER}`] }),
    ]);
    revoked = await stack.issueKeyWithId({ scopes: 'odds', grants: [`book=${SOCCER}`] });
    ({ url, clock } = await boot({ ROLE: 'all' }));
    await untilMatchServed(await open(both), TENNIS_MATCH);
  }, 120_000);

  afterAll(async () => {
    for (const client of clients) client.close();
    for (const app of apps.reverse()) await app.close();
    await book.stop();
    await stack?.drop();
  });

  it('refuses handshakes with the REST status and {"error"} text, without upgrading', async () => {
    await expect(refusedHandshake(`${url}/v1/book/data`)).resolves.toEqual({
      status: 401,
      body: { error: 'invalid or inactive API key' },
    });
    await expect(
      refusedHandshake(`${url}/v1/book/data?key=sk_unknownunknownunknownunknown12`),
    ).resolves.toEqual({
      status: 401,
      body: { error: 'invalid or inactive API key' },
    });
    await expect(refusedHandshake(`${url}/v1/book/data`, { 'X-API-Key': noOdds })).resolves.toEqual({
      status: 403,
      body: { error: 'missing required scope: odds' },
    });
    await expect(refusedHandshake(`${url}/v1/book/data?key=${otherBook}`)).resolves.toEqual({
      status: 403,
      body: { error: 'API key not permitted for sportsbook: book' },
    });
  });

  it('sends a snapshot on subscribe, then updates with only the changed market and removals', async () => {
    const client = await open(soccerOnly);
    client.send({ action: 'subscribe', match: MATCH });
    const snapshot = await client.next(isSnapshotOf(MATCH));
    expect(snapshot).toEqual({
      type: 'snapshot',
      seq: expect.any(Number) as unknown,
      prev_seq: snapshot.prev_seq === null ? null : (expect.any(Number) as unknown),
      match_id: MATCH,
      sport_id: SOCCER,
      ts: expect.any(Number) as unknown,
      selections: expect.any(Array) as unknown,
    });
    const selections = snapshot.selections as Array<{ market_key: string; price: number; version: number }>;
    const keys = new Set(selections.map((selection) => selection.market_key));
    expect(keys.size).toBeGreaterThan(3);
    const moneyline = selections.find((selection) => selection.price === 150);
    expect(moneyline).toBeDefined();

    const from = client.frames.length;
    book.putMarket(
      SOCCER,
      aMoneyline({
        cutoff_at: FUTURE,
        prices: [
          { designation: 'home', price: 165 },
          { designation: 'away', price: 180 },
          { designation: 'draw', price: 240 },
        ],
      }),
    );
    const update = await client.next(isUpdateOf(MATCH), { from });
    const changed = update.selections as Array<{ market_key: string; price: number; version: number }>;
    expect(new Set(changed.map((selection) => selection.market_key))).toEqual(
      new Set([moneyline?.market_key]),
    );
    expect(changed.map((selection) => selection.price).sort()).toEqual([165, 180, 240]);
    expect(changed[0].version).toBeGreaterThan(moneyline?.version ?? Infinity);
    expect(update.removed_market_keys).toEqual([]);
    expect(update.ts).toBeGreaterThanOrEqual(snapshot.ts as number);
    // The match's next change names the one the snapshot included.
    expect(update.seq).toBeGreaterThan(snapshot.seq as number);
    expect(update.prev_seq).toBe(snapshot.seq);

    const beforeWithdraw = client.frames.length;
    book.withdrawMarket(SOCCER, MATCH, 's;0;ou;2.5');
    const removal = await client.next(
      (frame) => isUpdateOf(MATCH)(frame) && (frame.removed_market_keys as string[]).length > 0,
      { from: beforeWithdraw },
    );
    expect(removal.removed_market_keys).toHaveLength(1);
    expect(keys.has((removal.removed_market_keys as string[])[0])).toBe(true);
  });

  it('answers bad requests with error frames and keeps the socket and other subscriptions', async () => {
    const client = await open(soccerOnly);
    client.send({ action: 'subscribe', match: SPECIAL });
    await client.next(isSnapshotOf(SPECIAL));
    client.send('{not json');
    client.send({ action: 'bet', match: MATCH });
    client.send({ action: 'subscribe', match: 'x' });
    client.send({ action: 'subscribe', match: TENNIS_MATCH });
    client.send({ action: 'subscribe', match: 42 });
    await waitFor(() => client.frames.filter((frame) => frame.type === 'error').length === 5, {
      timeoutMs: 5000,
      what: 'five error frames',
    });
    expect(client.frames.filter((frame) => frame.type === 'error')).toEqual([
      { type: 'error', error: 'malformed JSON: the frame is not valid JSON' },
      { type: 'error', error: 'unknown action: "bet" (expected subscribe, unsubscribe, subscribe_all)' },
      { type: 'error', error: 'invalid match: expected an integer' },
      { type: 'error', error: `API key not permitted for sport ${TENNIS}` },
      { type: 'error', error: 'match not found: 42' },
    ]);
    expect(client.isOpen).toBe(true);
    const from = client.frames.length;
    book.putMarket(SOCCER, {
      ...aMoneyline({ matchup_id: SPECIAL, cutoff_at: FUTURE }),
      prices: [
        { participant_id: 1601240001, price: 400 },
        { participant_id: 1601240002, price: 550 },
      ],
    });
    await client.next(isUpdateOf(SPECIAL), { from });
  });

  it('stops sending a match after unsubscribe, keeping the others', async () => {
    const client = await open(both);
    client.send({ action: 'subscribe', match: MATCH });
    client.send({ action: 'subscribe', match: TENNIS_MATCH });
    await client.next(isSnapshotOf(MATCH));
    await client.next(isSnapshotOf(TENNIS_MATCH));
    client.send({ action: 'unsubscribe', match: MATCH });
    // The unsubscribe is processed before anything the next poll brings: frames on one socket keep their order.
    const probe = await open(both);
    probe.send({ action: 'subscribe', match: MATCH });
    await probe.next(isSnapshotOf(MATCH));
    const from = client.frames.length;
    const probeFrom = probe.frames.length;
    book.putMarket(SOCCER, freshMoneyline());
    book.putMarket(TENNIS, freshMoneyline(TENNIS_MATCH));
    await probe.next(isUpdateOf(MATCH), { from: probeFrom });
    await client.next(isUpdateOf(TENNIS_MATCH), { from });
    expect(client.frames.slice(from).filter(isUpdateOf(MATCH))).toEqual([]);
  });

  it('subscribe_all covers granted sports, later matches too; an ungranted sport filter subscribes nothing', async () => {
    const all = await open(soccerOnly);
    const tennisOnly = await open(soccerOnly);
    const filtered = await open(both);
    all.send({ action: 'subscribe_all' });
    tennisOnly.send({ action: 'subscribe_all', sport: TENNIS });
    filtered.send({ action: 'subscribe_all', sport: TENNIS });
    await all.next(isSnapshotOf(MATCH));
    await all.next(isSnapshotOf(SPECIAL));
    await filtered.next(isSnapshotOf(TENNIS_MATCH));
    await tennisOnly.next((frame) => frame.type === 'error');
    // Heartbeats (every 200 ms here) reach every client whatever it subscribed; the rest is the error alone.
    expect(tennisOnly.frames.filter((frame) => frame.type !== 'heartbeat')).toEqual([
      { type: 'error', error: `API key not permitted for sport ${TENNIS}` },
    ]);
    expect(all.frames.filter(isSnapshotOf(TENNIS_MATCH))).toEqual([]);
    expect(filtered.frames.filter(isSnapshotOf(MATCH))).toEqual([]);

    book.putMatchup(
      SOCCER,
      aMatchup({
        id: NEW_MATCH,
        start_time: FUTURE,
        periods: [{ number: 0, status: 'open', cutoff_at: FUTURE }],
      }),
    );
    book.putMarket(SOCCER, aMoneyline({ matchup_id: NEW_MATCH, cutoff_at: FUTURE }));
    // The new match may be announced before its markets: its first frame is a snapshot, full or empty.
    await all.next((frame) => frame.match_id === NEW_MATCH && (frame.selections as unknown[]).length === 3);
    const later = all.frames.filter((frame) => frame.match_id === NEW_MATCH);
    expect(later[0]).toEqual(expect.objectContaining({ type: 'snapshot', sport_id: SOCCER }));
    expect(later.slice(1).every(isUpdateOf(NEW_MATCH))).toBe(true);
    const from = all.frames.length;
    book.putMarket(SOCCER, freshMoneyline(NEW_MATCH));
    await all.next(isUpdateOf(NEW_MATCH), { from });
    expect(filtered.frames.filter((frame) => frame.match_id === NEW_MATCH)).toEqual([]);
    expect(tennisOnly.frames).toHaveLength(
      1 + tennisOnly.frames.filter((f) => f.type === 'heartbeat').length,
    );
  });

  it('sends heartbeats whose feed_healthy goes false while the book fails and true once it recovers', async () => {
    const client = await open(soccerOnly);
    const healthy = await client.next((frame) => frame.type === 'heartbeat');
    expect(healthy).toEqual({
      type: 'heartbeat',
      ts: clock.now(),
      seq: expect.any(Number) as unknown,
      feed_healthy: true,
    });
    book.setFault({ status: 500 });
    try {
      clock.advance(5_000);
      const from = client.frames.length;
      const sick = await client.next((frame) => frame.type === 'heartbeat' && frame.feed_healthy === false, {
        from,
      });
      expect(sick.ts).toBe(clock.now());
    } finally {
      book.setFault(undefined);
    }
    const from = client.frames.length;
    await client.next((frame) => frame.type === 'heartbeat' && frame.feed_healthy === true, {
      from,
      timeoutMs: 20_000,
    });
  });

  it('beats at the heartbeat_ms a client asks for instead of BOOK_HEARTBEAT_MS', async () => {
    const slow = await open(soccerOnly, url, '&heartbeat_ms=700');
    const usual = await open(soccerOnly);
    const beats = (client: StreamClient) =>
      client.receivedAt.filter((_, i) => client.frames[i].type === 'heartbeat');
    await waitFor(() => beats(slow).length >= 5, { timeoutMs: 10_000, what: 'five heartbeats' });
    const gapsOf = (times: number[]) => times.slice(1).map((at, i) => at - times[i]);
    const mean = (gaps: number[]) => gaps.reduce((sum, gap) => sum + gap, 0) / gaps.length;
    const asked = gapsOf(beats(slow).slice(0, 5));
    const defaulted = gapsOf(beats(usual));
    process.stdout.write(
      `odds-heartbeat ${JSON.stringify({ askedMs: 700, meanMs: mean(asked), defaultMs: 200, defaultMeanMs: mean(defaulted) })}\n`,
    );
    expect(mean(asked)).toBeGreaterThanOrEqual(650);
    expect(mean(asked)).toBeLessThanOrEqual(800);
    expect(mean(defaulted)).toBeLessThanOrEqual(260);
  });

  it('refuses a heartbeat_ms out of range or not an integer with 400 naming it, without upgrading', async () => {
    for (const value of ['100', '60001', 'x', '']) {
      await expect(
        refusedHandshake(`${url}/v1/book/data?key=${soccerOnly}&heartbeat_ms=${value}`),
      ).resolves.toEqual({ status: 400, body: { error: 'invalid parameter: heartbeat_ms' } });
    }
  });

  it('delivers the same update bytes to subscribers of two api replicas', async () => {
    const first = await boot({ ROLE: 'api' });
    const second = await boot({ ROLE: 'api' });
    const a = await open(soccerOnly, first.url);
    const b = await open(soccerOnly, second.url);
    a.send({ action: 'subscribe', match: MATCH });
    b.send({ action: 'subscribe', match: MATCH });
    await a.next(isSnapshotOf(MATCH));
    await b.next(isSnapshotOf(MATCH));
    const [fromA, fromB] = [a.frames.length, b.frames.length];
    book.putMarket(
      SOCCER,
      aMoneyline({
        cutoff_at: FUTURE,
        prices: [
          { designation: 'home', price: 171 },
          { designation: 'away', price: 172 },
          { designation: 'draw', price: 173 },
        ],
      }),
    );
    const isPrice = (frame: Frame) =>
      isUpdateOf(MATCH)(frame) && (frame.selections as Array<{ price: number }>).some((s) => s.price === 171);
    await a.next(isPrice, { from: fromA });
    await b.next(isPrice, { from: fromB });
    const textA = a.texts[a.frames.findIndex((frame, index) => index >= fromA && isPrice(frame))];
    const textB = b.texts[b.frames.findIndex((frame, index) => index >= fromB && isPrice(frame))];
    expect(textA).toBe(textB);
  });

  it('closes the socket of a key disabled while connected (1008)', async () => {
    const client = await open(revoked.key);
    client.send({ action: 'subscribe', match: MATCH });
    await client.next(isSnapshotOf(MATCH));
    await stack.disableKey(revoked.id);
    await expect(client.closed(5_000)).resolves.toBe(1008);
    await expect(refusedHandshake(`${url}/v1/book/data?key=${revoked.key}`)).resolves.toMatchObject({
      status: 401,
    });
  });

  it('closes its sockets with 1001 when the application shuts down', async () => {
    const replica = await boot({ ROLE: 'api' });
    const client = await open(soccerOnly, replica.url);
    client.send({ action: 'subscribe', match: MATCH });
    await client.next(isSnapshotOf(MATCH));
    await replica.app.close();
    apps.splice(apps.indexOf(replica.app), 1);
    await expect(client.closed()).resolves.toBe(1001);
  });
});
