import type { INestApplication } from '@nestjs/common';
import {
  MATCH,
  moneylineWithHomePrice,
  SOCCER,
  TENNIS,
  TENNIS_MATCH,
  seedBook,
  tennisMoneylineWithHomePrice,
} from '../odds-passthrough/book-fixture';
import { bootOdds } from '../support/apps';
import { FakeSportsbook } from '../support/fake-sportsbook';
import { waitFor } from '../support/wait-for';
import { untilMatchServed } from './support/book-served';
import { untilLogDropped } from './support/change-log-age';
import { type IsolatedStack, isolatedStack } from './support/isolated-stack';
import { type Frame, listen, StreamClient } from './support/stream-client';

interface BookFrame extends Frame {
  type: 'snapshot' | 'update';
  seq: number;
  prev_seq: number | null;
  match_id: number;
  selections: { market_key: string; price: number; version: number }[];
}

const isData = (frame: Frame): frame is BookFrame => frame.type === 'snapshot' || frame.type === 'update';
const ofMatch = (match: number) => (frame: Frame) => isData(frame) && frame.match_id === match;

/**
 * `seq`, `prev_seq`, `resume_after`, `conflate_ms` and the heartbeat's `seq`
 * on the odds stream, against an ingest and separate api replicas on real
 * PostgreSQL and NATS (JetStream keeps each book's change log).
 */
describe('odds stream positions, resume and conflation', () => {
  const book = new FakeSportsbook();
  const apps: INestApplication[] = [];
  const clients: StreamClient[] = [];
  let stack: IsolatedStack;
  let ingest: INestApplication;
  let replicaUrl: string;
  let key: string;
  let price = 200;

  async function boot(role: 'ingest' | 'api'): Promise<{ app: INestApplication; url: string }> {
    const { app } = await bootOdds({
      env: { ...stack.env, ROLE: role, BOOK_UPSTREAM_URL: book.url, BOOK_POLL_MS: '200' },
    });
    apps.push(app);
    return { app, url: await listen(app) };
  }

  async function open(base: string, query = ''): Promise<StreamClient> {
    const client = await StreamClient.open(`${base}/v1/book/data?key=${key}${query}`);
    clients.push(client);
    return client;
  }

  /** A new home price for the soccer match, and the frame a subscriber that never left receives for it. */
  async function move(watcher: StreamClient, match = MATCH): Promise<BookFrame> {
    price += 1;
    const home = price;
    book.putMarket(
      match === MATCH ? SOCCER : TENNIS,
      match === MATCH ? moneylineWithHomePrice(home) : tennisMoneylineWithHomePrice(home),
    );
    return (await watcher.next(
      (frame) =>
        ofMatch(match)(frame) &&
        (frame as BookFrame).selections.some((selection) => selection.price === home),
      { what: `the frame of price ${home}` },
    )) as BookFrame;
  }

  async function dataFrames(client: StreamClient, count: number): Promise<BookFrame[]> {
    await waitFor(() => client.frames.filter(isData).length >= count, {
      timeoutMs: 10_000,
      what: `${count} data frame(s)`,
    });
    return client.frames.filter(isData);
  }

  async function watch(match = MATCH): Promise<StreamClient> {
    const watcher = await open(replicaUrl);
    watcher.send({ action: 'subscribe', match });
    await watcher.next(ofMatch(match), { what: 'the snapshot' });
    return watcher;
  }

  beforeAll(async () => {
    stack = await isolatedStack('odds_positions');
    await book.start();
    seedBook(book);
    key = await stack.issueKey({ scopes: 'odds', grants: [`book=${SOCCER},${TENNIS}`] });
    ingest = (await boot('ingest')).app;
    replicaUrl = (await boot('api')).url;
    await untilMatchServed(await open(replicaUrl), TENNIS_MATCH);
  }, 120_000);

  afterAll(async () => {
    for (const client of clients) client.close();
    for (const app of apps.reverse()) await app.close();
    await book.stop();
    await stack?.drop();
  });

  it('numbers every frame with a growing seq and chains prev_seq to the frame before', async () => {
    const watcher = await watch();
    const frames = [await move(watcher), await move(watcher), await move(watcher)];
    const [snapshot] = watcher.frames.filter(isData);
    expect(snapshot.type).toBe('snapshot');
    expect(frames[0].prev_seq).toBe(snapshot.seq);
    for (let i = 1; i < frames.length; i++) {
      expect(frames[i].type).toBe('update');
      expect(frames[i].seq).toBeGreaterThan(frames[i - 1].seq);
      expect(frames[i].prev_seq).toBe(frames[i - 1].seq);
    }
  });

  it('resumes a match on the same replica and on one that never saw the changes, without a snapshot', async () => {
    const watcher = await watch();
    const held = await move(watcher);
    const missed = [await move(watcher), await move(watcher)];

    const same = await open(replicaUrl);
    same.send({ action: 'subscribe', match: MATCH, resume_after: held.seq });
    const other = await open((await boot('api')).url);
    other.send({ action: 'subscribe', match: MATCH, resume_after: held.seq });
    for (const client of [same, other]) {
      expect(await dataFrames(client, 2)).toEqual(missed);
    }
    const next = await move(watcher);
    for (const client of [same, other]) {
      await client.next((frame) => isData(frame) && frame.seq === next.seq);
      expect(client.frames.filter(isData).map((frame) => frame.seq)).toEqual(
        [...missed, next].map((frame) => frame.seq),
      );
    }
  });

  it('resumes a subscribe_all with the changes of every match after the position, in seq order', async () => {
    const soccer = await watch(MATCH);
    const tennis = await watch(TENNIS_MATCH);
    const held = await move(soccer);
    const missed = [await move(tennis, TENNIS_MATCH), await move(soccer), await move(tennis, TENNIS_MATCH)];

    const resumed = await open(replicaUrl);
    resumed.send({ action: 'subscribe_all', resume_after: held.seq });
    const frames = await dataFrames(resumed, missed.length);
    expect(frames.map((frame) => [frame.type, frame.match_id, frame.seq])).toEqual(
      missed.map((frame) => ['update', frame.match_id, frame.seq]),
    );
  });

  it('keeps seq growing and prev_seq chained across an ingest restart, and resumes across it', async () => {
    const watcher = await watch();
    const before = await move(watcher);
    const beforeRestart = await move(watcher);

    await ingest.close();
    apps.splice(apps.indexOf(ingest), 1);
    ingest = (await boot('ingest')).app;
    const after = await move(watcher);
    expect(after.seq).toBeGreaterThan(beforeRestart.seq);
    expect(after.prev_seq).toBe(beforeRestart.seq);

    const resumed = await open(replicaUrl);
    resumed.send({ action: 'subscribe', match: MATCH, resume_after: before.seq });
    expect((await dataFrames(resumed, 2)).map((frame) => [frame.type, frame.seq])).toEqual([
      ['update', beforeRestart.seq],
      ['update', after.seq],
    ]);
  });

  it('answers a position ahead of the log with a snapshot, as without resume_after', async () => {
    const watcher = await watch();
    const latest = await move(watcher);
    const client = await open(replicaUrl);
    client.send({ action: 'subscribe_all', sport: SOCCER, resume_after: latest.seq + 1_000_000 });
    const frames = await dataFrames(client, 1);
    expect(frames.find(ofMatch(MATCH))).toMatchObject({
      type: 'snapshot',
      seq: latest.seq,
      prev_seq: latest.prev_seq,
    });
  });

  it('sends a conflate_ms subscriber one merged frame per window, with the newest seq', async () => {
    const watcher = await watch();
    const client = await open(replicaUrl);
    client.send({ action: 'subscribe', match: MATCH, conflate_ms: 1_500 });
    await client.next(ofMatch(MATCH), { what: 'the snapshot' });
    const moves: BookFrame[] = [];
    for (let i = 0; i < 4; i++) moves.push(await move(watcher));
    const newest = moves[moves.length - 1];
    const merged = (await client.next((frame) => isData(frame) && frame.seq === newest.seq, {
      timeoutMs: 5_000,
      what: 'the merged frame',
    })) as BookFrame;
    const updates = client.frames.filter(isData).slice(1);
    // Four changes about 200 ms apart fall into at most two windows after the snapshot's.
    expect(updates.length).toBeLessThanOrEqual(2);
    expect(merged.prev_seq).toBe(moves[moves.length - 2].seq);
    expect(merged.selections.some((selection) => selection.price === price)).toBe(true);
  });

  it('refuses a conflate_ms out of range with an error frame and makes no subscription', async () => {
    const client = await open(replicaUrl);
    client.send({ action: 'subscribe', match: MATCH, conflate_ms: 10_001 });
    await client.next((frame) => frame.type === 'error', { what: 'the error frame' });
    // A heartbeat may come at any moment; every other frame is this refusal.
    expect(client.frames.filter((frame) => frame.type !== 'heartbeat')).toEqual([
      { type: 'error', error: 'invalid conflate_ms: expected an integer from 0 to 10000' },
    ]);
    // No subscription was made: the match's next change does not reach this socket.
    const watcher = await watch();
    await move(watcher);
    expect(client.frames.filter(isData)).toEqual([]);
  });

  it('carries the newest seq the replica applied in heartbeats', async () => {
    const watcher = await watch();
    const latest = await move(watcher);
    const client = await open(replicaUrl, '&heartbeat_ms=500');
    const beat = await client.next((frame) => frame.type === 'heartbeat', { what: 'a heartbeat' });
    expect(beat.seq).toBeGreaterThanOrEqual(latest.seq);
  });
});

describe('odds stream resume past retention', () => {
  const book = new FakeSportsbook();
  const clients: StreamClient[] = [];
  let stack: IsolatedStack;
  let app: INestApplication | undefined;

  afterAll(async () => {
    for (const client of clients) client.close();
    await app?.close();
    await book.stop();
    await stack?.drop();
  });

  it('sends snapshots when changes after the position have aged out of the log', async () => {
    stack = await isolatedStack('odds_retention');
    await book.start();
    seedBook(book);
    ({ app } = await bootOdds({
      env: {
        ...stack.env,
        ROLE: 'all',
        BOOK_UPSTREAM_URL: book.url,
        BOOK_POLL_MS: '200',
        CHANGE_LOG_RETENTION_MS: '1000',
      },
    }));
    const key = await stack.issueKey({ scopes: 'odds', grants: [`book=${SOCCER},${TENNIS}`] });
    const url = await listen(app);
    const watcher = await StreamClient.open(`${url}/v1/book/data?key=${key}`);
    clients.push(watcher);
    await untilMatchServed(watcher, MATCH);
    const frames: BookFrame[] = [];
    for (const home of [701, 702]) {
      book.putMarket(SOCCER, moneylineWithHomePrice(home));
      frames.push(
        (await watcher.next(
          (frame) => ofMatch(MATCH)(frame) && (frame as BookFrame).selections.some((s) => s.price === home),
        )) as BookFrame,
      );
    }

    await untilLogDropped(stack.env.NATS_SUBJECT_PREFIX, 'ODDS_BOOK', frames[1].seq);

    const resumed = await StreamClient.open(`${url}/v1/book/data?key=${key}`);
    clients.push(resumed);
    resumed.send({ action: 'subscribe', match: MATCH, resume_after: frames[0].seq });
    const first = (await resumed.next(isData)) as BookFrame;
    expect(first).toMatchObject({ type: 'snapshot', seq: frames[1].seq });
    expect(first.selections.some((selection) => selection.price === 702)).toBe(true);
  }, 60_000);
});
